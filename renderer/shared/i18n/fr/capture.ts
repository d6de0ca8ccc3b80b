/** What the console says of the guests' jobs that the capture app failed. */
export const frCapture = {
  'jobs.failed.one': '« {action} » ({kind}) a échoué à {time} : l’invité n’a pas eu {result}.',
  'jobs.failed.other':
    '« {action} » ({kind}) a échoué {count} fois de suite, la dernière à {time} : les invités qui appuient sur ce bouton n’ont pas {result}.',
  // What one guest did not get, then what the guests do not get (French needs « sa », « son », « leur »).
  'jobs.lost.guest.image': 'sa photo',
  'jobs.lost.guest.collage': 'son collage',
  'jobs.lost.guest.animation': 'son animation',
  'jobs.lost.guest.video': 'sa vidéo',
  'jobs.lost.guest.multicamera': 'sa prise multi-caméra',
  'jobs.lost.guests.image': 'leur photo',
  'jobs.lost.guests.collage': 'leur collage',
  'jobs.lost.guests.animation': 'leur animation',
  'jobs.lost.guests.video': 'leur vidéo',
  'jobs.lost.guests.multicamera': 'leur prise multi-caméra',
  'jobs.reasons': 'Ce que dit l’application de capture',
  'jobs.noReason': 'L’application de capture n’a donné aucune raison. Son journal en dit peut-être plus.',
  'jobs.seen': 'Compris',
  'jobs.more': '{count} {count:autre échec|autres échecs} plus tôt.',
  'actions.failing': '{count} {count:échec|échecs} de suite',
  'actions.failingTitle': 'Les dernières prises de cette action ont toutes échoué (la dernière à {time}).',
} as const;
