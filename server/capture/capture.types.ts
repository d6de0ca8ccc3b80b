import { z } from 'zod';

/** One item of the capture app's media collection, as its API reports it. */
export const mediaItemSchema = z.looseObject({
  // Checked before anything is indexed: an id reaches URLs, the database and the console.
  id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  media_type: z.string(),
  created_at: z.string(),
  updated_at: z.string().optional(),
  unprocessed: z.string().optional(),
  processed: z.string(),
  show_in_gallery: z.boolean().optional(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

/** A page of the collection; items that are not valid (a bad id…) are left out one by one, not the page. */
export const mediaItemListSchema = z.array(z.unknown()).transform((items) =>
  items.flatMap((item) => {
    const parsed = mediaItemSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  }),
);

export const MEDIA_VARIANTS = ['full', 'preview', 'thumbnail'] as const;
export type MediaVariant = (typeof MEDIA_VARIANTS)[number];

export const ACTION_KINDS = ['image', 'collage', 'animation', 'video', 'multicamera'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/**
 * The capture app's whole configuration. Boothdeck edits a few branches of it and must carry
 * every other field through untouched, so the type stays open.
 */
export type CaptureConfig = { [group: string]: unknown };

export const PROCESS_STATES = ['start', 'counting', 'capture', 'approval', 'completed', 'present', 'finished'] as const;
export type ProcessState = (typeof PROCESS_STATES)[number];

export const processStateInfoSchema = z.looseObject({
  source: z.string(),
  target: z.string(),
  jobmodel: z.looseObject({
    typ: z.string().optional(),
    total_captures_to_take: z.number().optional(),
    number_captures_taken: z.number().optional(),
    duration: z.number().optional(),
    present_mediaitem_id: z.string().nullable().optional(),
  }),
});
export type ProcessStateInfo = z.infer<typeof processStateInfoSchema>;

/** One server-sent event as received; `data` is parsed JSON when it parses, else the raw text. */
export interface CaptureEvent {
  event: string;
  data: unknown;
  id?: string;
}

/** Strict UUID form: anything else never reaches a capture-app URL. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
