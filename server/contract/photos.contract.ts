export interface PhotoUrls {
  thumb: string;
  preview: string;
  download: string;
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
  processed: boolean;
  printed_copies: number;
  /** The file is gone from the capture app's data folder. */
  missing: boolean;
  file_name: string;
  urls: PhotoUrls;
}

/** A photo as a guest sees it: nothing about other events or the booth. */
export interface PublicPhoto {
  id: string;
  taken_at: string;
  printed_copies: number;
  urls: PhotoUrls;
}

export interface PhotoPage<P> {
  photos: P[];
  next_cursor: string | null;
}

export interface GalleryInfo {
  event: { name: string } | null;
}

export interface GalleryLink {
  url: string;
  source: 'computed' | 'settings';
  svg: string;
}
