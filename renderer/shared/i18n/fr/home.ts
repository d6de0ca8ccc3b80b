/** The home screen: the booth at a glance, one action per card. */
export const frHome = {
  'glance.title': 'Accueil',
  'glance.subtitle': 'La borne d’un coup d’œil. Les opérations rares sont dans Maintenance.',
  'glance.details': 'Détails',
  'glance.hideDetails': 'Masquer les détails',

  'glance.event.lastHour': '{count} {count:photo|photos} dans la dernière heure',
  'glance.event.total': '{count} {count:photo|photos} depuis le début',
  'glance.event.new': 'Nouvel événement',

  'glance.capture.restart': 'Redémarrer',
  'glance.capture.address': 'Adresse : {url}',
  'glance.capture.restarting': 'Redémarrage en cours…',
  'glance.capture.waiting': 'Redémarrera après la photo en cours',

  'glance.printer.title': 'Imprimante',
  'glance.printer.queue': '{count} {count:travail|travaux} en attente',
  'glance.printer.open': 'Ouvrir l’impression',
  'glance.printer.unknown': 'État de l’imprimante inconnu pour l’instant.',
  'glance.unknown': 'Inconnu pour l’instant',

  'glance.disk.title': 'Espace pour les photos',
  'glance.disk.photosLeft': 'Encore environ {count} {count:photo|photos}',
  'glance.disk.free': '{free} libres',
  'glance.disk.unknown': 'Espace libre illisible.',
  'glance.disk.export': 'Exporter les photos',

  'glance.hardware.ok': 'Tout répond',
  'glance.hardware.simulated': 'Matériel simulé',
  'glance.hardware.open': 'Régler le matériel',

  'glance.guests.title': 'Invités',
  'glance.guests.online': '{count} {count:téléphone connecté|téléphones connectés} à la galerie',
  'glance.guests.qr': 'QR code de la galerie',

  'maint.failed.reboot':
    'La borne n’a pas pu redémarrer : le système a refusé. Si elle ne répond plus, coupez puis remettez son alimentation.',
  'maint.failed.restartBoothdeck': 'Boothdeck n’a pas pu redémarrer. Réessayez dans un instant.',
  'maint.back.boothdeck': 'Boothdeck a redémarré et répond de nouveau.',
  'maint.back.late': 'Boothdeck ne répond pas encore. Patientez ou redémarrez la borne.',

  'editor.processing.noFilter': 'Aucun filtre (photo d’origine)',

  'hw.flash.preflashTooLate':
    'La photo est prise 0,2 s avant la fin du compte à rebours : avec {value} s de pré-flash, le flash s’allume après elle.',
  'hw.flash.preflashTight': 'Le flash s’allume au moment même de la photo : 0,3 s au moins est plus sûr.',

  'adminGallery.anyDay': 'Toutes dates',

  'maint.subtitle': 'Redémarrages, sauvegarde, journal et réglages.',

  'editor.triggerDetails': 'Adresse de déclenchement (détails)',

  'maint.printerIs': 'Imprimante : {name}',

  'glance.printer.queueEmpty': 'Aucune impression en attente',
} as const;
