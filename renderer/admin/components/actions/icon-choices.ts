import type { Locale } from '../../../shared/i18n/index.js';

/**
 * The Material icons a booth's buttons are likely to wear, each with its name and a few search
 * words in both languages. The capture app's own defaults come first; any other icon of the font
 * stays reachable by its name in the advanced field.
 */
export interface IconChoice {
  name: string;
  label: Record<Locale, string>;
  /** More words a search matches, lower case, without accents. */
  words: string;
}

const icon = (name: string, fr: string, en: string, words = ''): IconChoice => ({ name, label: { fr, en }, words });

export const ICON_CHOICES: readonly IconChoice[] = [
  icon('photo_camera', 'Appareil photo', 'Camera', 'photo image prise vue'),
  icon('auto_awesome_mosaic', 'Collage', 'Collage', 'mosaique mosaic grille'),
  icon('gif_box', 'GIF', 'GIF', 'animation anime'),
  icon('movie', 'Film', 'Movie', 'video cinema clap'),
  icon('3d_rotation', 'Rotation 3D', '3D rotation', 'multicamera multi camera wigglegram'),
  icon('camera_alt', 'Appareil photo (plein)', 'Camera (filled)', 'photo image'),
  icon('camera', 'Objectif', 'Lens', 'photo camera diaphragme aperture'),
  icon('add_a_photo', 'Nouvelle photo', 'Add a photo', 'ajouter photo camera'),
  icon('photo', 'Photo', 'Picture', 'image paysage landscape'),
  icon('portrait', 'Portrait', 'Portrait', 'personne person selfie'),
  icon('face', 'Visage', 'Face', 'selfie personne person'),
  icon('groups', 'Groupe', 'Group', 'amis friends famille family personnes people'),
  icon('people', 'Personnes', 'People', 'duo couple amis friends'),
  icon('diversity_3', 'Amis', 'Friends', 'groupe group personnes people'),
  icon('grid_view', 'Grille', 'Grid', 'collage mosaique mosaic'),
  icon('dashboard', 'Planche', 'Layout', 'collage mosaique mosaic'),
  icon('collections', 'Collection', 'Collection', 'album photos galerie gallery'),
  icon('photo_library', 'Album', 'Album', 'photos galerie gallery collection'),
  icon('gif', 'GIF (texte)', 'GIF (text)', 'animation'),
  icon('animation', 'Animation', 'Animation', 'gif mouvement motion'),
  icon('burst_mode', 'Rafale', 'Burst', 'animation photos sequence'),
  icon('videocam', 'Caméra', 'Video camera', 'video film movie'),
  icon('slow_motion_video', 'Ralenti', 'Slow motion', 'video boomerang'),
  icon('view_in_ar', 'Cube 3D', '3D cube', 'multicamera multi camera'),
  icon('360', '360°', '360°', 'rotation tour multicamera'),
  icon('filter', 'Filtre', 'Filter', 'effet effect retouche'),
  icon('auto_awesome', 'Effets', 'Effects', 'etoiles sparkle magie magic filtre filter'),
  icon('brush', 'Pinceau', 'Brush', 'dessin drawing art'),
  icon('palette', 'Couleurs', 'Palette', 'couleur colour color art'),
  icon('celebration', 'Fête', 'Party', 'celebration confettis soiree'),
  icon('cake', 'Gâteau', 'Cake', 'anniversaire birthday'),
  icon('card_giftcard', 'Cadeau', 'Gift', 'present anniversaire birthday'),
  icon('church', 'Église', 'Church', 'mariage wedding ceremonie ceremony'),
  icon('favorite', 'Cœur', 'Heart', 'amour love coeur mariage wedding'),
  icon('star', 'Étoile', 'Star', 'favori favourite'),
  icon('emoji_emotions', 'Sourire', 'Smile', 'emoji content happy'),
  icon('mood', 'Bonne humeur', 'Good mood', 'sourire smile emoji'),
  icon('local_bar', 'Cocktail', 'Cocktail', 'bar boisson drink verre glass'),
  icon('nightlife', 'Soirée', 'Night out', 'fete party bar'),
  icon('music_note', 'Musique', 'Music', 'note chanson song danse dance'),
  icon('pets', 'Animaux', 'Pets', 'chien dog chat cat patte paw'),
  icon('child_care', 'Enfant', 'Child', 'bebe baby enfants kids'),
  icon('wb_sunny', 'Soleil', 'Sun', 'ete summer exterieur outdoor'),
  icon('flash_on', 'Flash', 'Flash', 'eclair lightning lumiere light'),
  icon('timer', 'Minuteur', 'Timer', 'compte a rebours countdown'),
  icon('print', 'Impression', 'Print', 'imprimante printer'),
  icon('qr_code_2', 'QR code', 'QR code', 'partage share telephone phone'),
  icon('share', 'Partager', 'Share', 'partage envoyer send'),
];

/** Lower case, accents off: "Fête" matches "fete" and "fête". */
export const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** The choices whose name, label in either language or words contain every word of the query. */
export function searchIcons(query: string): IconChoice[] {
  const terms = fold(query).split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...ICON_CHOICES];
  return ICON_CHOICES.filter((choice) => {
    const hay = fold(`${choice.name.replace(/_/g, ' ')} ${choice.label.fr} ${choice.label.en} ${choice.words}`);
    return terms.every((term) => hay.includes(term));
  });
}

/** The icon's words in the console's language, or null when it is not among the choices. */
export function iconLabel(name: string, locale: Locale): string | null {
  return ICON_CHOICES.find((c) => c.name === name)?.label[locale] ?? null;
}
