/** What the console says of the guests' jobs that the capture app failed. */
export const frCapture = {
  'jobs.failed.one': '« {action} » ({kind}) a échoué à {time} : l’invité n’a pas eu sa {result}.',
  'jobs.failed.other':
    '« {action} » ({kind}) a échoué {count} fois de suite, la dernière à {time} : les invités qui appuient sur ce bouton n’ont pas leur {result}.',
  'jobs.result.image': 'photo',
  'jobs.result.collage': 'photo (collage)',
  'jobs.result.animation': 'animation',
  'jobs.result.video': 'vidéo',
  'jobs.result.multicamera': 'prise multi-caméra',
  'jobs.reasons': 'Ce que dit l’application de capture',
  'jobs.noReason': 'L’application de capture n’a donné aucune raison. Son journal en dit peut-être plus.',
  'jobs.seen': 'Compris',
  'jobs.more': '{count} {count:autre échec|autres échecs} plus tôt.',
  'actions.failing': '{count} {count:échec|échecs} de suite',
  'actions.failingTitle': 'Les dernières prises de cette action ont toutes échoué (la dernière à {time}).',
} as const;
