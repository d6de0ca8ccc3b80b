import type { frHome } from '../fr/home.js';

export const enHome: Record<keyof typeof frHome, string> = {
  'glance.title': 'Home',
  'glance.subtitle': 'The booth at a glance. Rare operations are under Maintenance.',
  'glance.details': 'Details',
  'glance.hideDetails': 'Hide details',

  'glance.event.lastHour': '{count} {count:photo|photos} in the last hour',
  'glance.event.total': '{count} {count:photo|photos} since the start',
  'glance.event.new': 'New event',

  'glance.capture.restart': 'Restart',
  'glance.capture.address': 'Address: {url}',
  'glance.capture.restarting': 'Restarting…',
  'glance.capture.waiting': 'Restarts after the photo under way',

  'glance.printer.title': 'Printer',
  'glance.printer.queue': '{count} {count:job|jobs} waiting',
  'glance.printer.open': 'Open printing',
  'glance.printer.unknown': 'The printer’s state is not known yet.',
  'glance.unknown': 'Unknown for now',

  'glance.disk.title': 'Room for photos',
  'glance.disk.photosLeft': 'About {count} {count:photo|photos} left',
  'glance.disk.free': '{free} free',
  'glance.disk.unknown': 'Free space cannot be read.',
  'glance.disk.export': 'Export the photos',

  'glance.hardware.ok': 'Everything answers',
  'glance.hardware.simulated': 'Simulated hardware',
  'glance.hardware.open': 'Hardware settings',

  'glance.guests.title': 'Guests',
  'glance.guests.online': '{count} {count:phone|phones} on the gallery',
  'glance.guests.qr': 'Gallery QR code',

  'maint.failed.reboot': 'The booth could not restart: the system refused. If it stops answering, switch its power off and on.',
  'maint.failed.restartBoothdeck': 'Boothdeck could not restart. Try again in a moment.',
  'maint.back.boothdeck': 'Boothdeck has restarted and answers again.',
  'maint.back.late': 'Boothdeck does not answer yet. Wait, or restart the booth.',

  'editor.processing.noFilter': 'No filter (original photo)',

  'hw.flash.preflashTooLate':
    'The photo is taken 0.2 s before the countdown ends: with a {value} s pre-flash, the flash comes on after it.',
  'hw.flash.preflashTight': 'The flash comes on just as the photo is taken: at least 0.3 s is safer.',

  'adminGallery.anyDay': 'Any day',

  'maint.subtitle': 'Restarts, backup, log and settings.',

  'editor.triggerDetails': 'Trigger address (details)',

  'maint.printerIs': 'Printer: {name}',

  'glance.printer.queueEmpty': 'Nothing waiting to print',
};
