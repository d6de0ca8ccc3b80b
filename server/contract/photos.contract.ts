/** What the booth made: a still, a collage, an animation (WebP, AVIF or GIF) or a video (MP4). */
export type MediaKind = 'photo' | 'collage' | 'animation' | 'video';

export interface PhotoUrls {
  thumb: string;
  /** A still image: for a video, its poster. */
  preview: string;
  download: string;
  /** The file itself, for playing: only for animations and videos. */
  media?: string;
}

/** A photo as the admin gallery sees it. */
export interface AdminPhoto {
  id: string;
  event: { slug: string; name: string } | null;
  /** Capture time (from the file stem), ISO 8601. */
  taken_at: string;
  created_at: string | null;
  /** File modification time, what the date filter uses. */
  mtime: string;
  kind: MediaKind;
  /** False while the capture app is still making the processed file. */
  processed: boolean;
  printed_copies: number;
  /** The file is gone from the capture app's data folder. */
  missing: boolean;
  file_name: string;
  urls: PhotoUrls;
  /** The collage this single capture was taken for (its id), when it is one of its parts. */
  part_of: string | null;
  /** A collage's parts, oldest first, listed under it rather than on their own. */
  parts?: AdminPhoto[];
}

/** A photo as a guest sees it: nothing about other events or the booth. */
export interface PublicPhoto {
  id: string;
  kind: MediaKind;
  taken_at: string;
  printed_copies: number;
  urls: PhotoUrls;
  /** A collage's parts, when the operator shows them with their collage. */
  parts?: PublicPhoto[];
}

/**
 * How guests see the single captures of a collage (the capture app shows them in its gallery
 * by default): not at all, with their collage (in its lightbox), or as photos of their own.
 */
export type CollagePartsMode = 'hidden' | 'with_collage' | 'photos';

export interface PhotoPage<P> {
  photos: P[];
  next_cursor: string | null;
}

/** The current event as guests see it. */
export interface GalleryEvent {
  name: string;
  /** Items guests can see (processed ones). */
  photo_count: number;
  welcome: string | null;
}

export interface GalleryInfo {
  event: GalleryEvent | null;
}

export interface GalleryLink {
  url: string;
  source: 'computed' | 'settings';
  svg: string;
}
