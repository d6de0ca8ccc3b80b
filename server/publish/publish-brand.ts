import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import type { PublishColors, PublishLogo } from '../contract/publish.contract.js';
import { ValidationError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs/atomic-write.js';
import { sniffFormat } from '../media/media-sniff.js';
import type { SettingsRepository } from '../settings/settings.repository.js';

/** A logo is a small picture: at most 256 KB of PNG, JPEG or WebP (still), 16 to 2,000 px a side. */
export const MAX_LOGO_BYTES = 256 * 1024;
const MAX_LOGO_EDGE = 2000;
const LOGO_KEY = 'publish.logo';
const EXT = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

/** What the settings keep of the logo: its name under the brand folder, as published beside each event's page. */
const storedLogo = z.strictObject({
  name: z.string().regex(/^logo\/[0-9a-f]{16}\.(png|jpg|webp)$/),
  type: z.enum(['png', 'jpeg', 'webp']),
  size: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

export type StoredLogo = z.output<typeof storedLogo>;

const badLogo = (message: string): ValidationError =>
  new ValidationError(`Invalid logo: logo ${message}`, { issues: [{ field: 'logo', message }] });

/** The logo of the published pages: checked by its bytes, stored in Boothdeck's data folder, never answered as an image. */
export class LogoStore {
  constructor(
    private readonly repo: SettingsRepository,
    /** `<data>/publish/brand`: the logo's name is relative to it, as it is to an event's folder online. */
    readonly dir: string,
  ) {}

  current(): StoredLogo | null {
    const parsed = storedLogo.safeParse(this.repo.get(LOGO_KEY));
    return parsed.success ? parsed.data : null;
  }

  view(): PublishLogo | null {
    const logo = this.current();
    return logo === null ? null : { type: logo.type, size: logo.size, width: logo.width, height: logo.height };
  }

  async save(base64: string): Promise<PublishLogo> {
    if (base64.length > Math.ceil(MAX_LOGO_BYTES / 3) * 4 + 4) throw badLogo(`must be at most ${MAX_LOGO_BYTES / 1024} KB`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw badLogo('must be the image in base64');
    const data = Buffer.from(base64, 'base64');
    if (data.length === 0) throw badLogo('must not be empty');
    if (data.length > MAX_LOGO_BYTES) throw badLogo(`must be at most ${MAX_LOGO_BYTES / 1024} KB`);
    const format = sniffFormat(data.subarray(0, 64));
    if (format !== 'png' && format !== 'jpeg' && format !== 'webp') throw badLogo('must be a PNG, JPEG or WebP picture');
    // Read whole by the decoder: a file that only starts like a picture is refused here, not on guests' phones.
    const meta = await sharp(data, { limitInputPixels: MAX_LOGO_EDGE * MAX_LOGO_EDGE, failOn: 'error' })
      .stats()
      .then(() => sharp(data).metadata())
      .catch(() => null);
    const width = meta?.width ?? 0;
    const height = meta?.height ?? 0;
    if (meta === null || (meta.pages ?? 1) > 1) throw badLogo('must be a still picture that can be read');
    if (width < 16 || height < 16 || width > MAX_LOGO_EDGE || height > MAX_LOGO_EDGE)
      throw badLogo(`must be 16 to ${MAX_LOGO_EDGE} pixels a side`);
    const name = `logo/${createHash('sha256').update(data).digest('hex').slice(0, 16)}.${EXT[format]}`;
    await mkdir(path.join(this.dir, 'logo'), { recursive: true });
    await writeFileAtomic(path.join(this.dir, name), data);
    const old = this.current();
    const logo: StoredLogo = { name, type: format, size: data.length, width, height };
    this.repo.set(LOGO_KEY, logo);
    if (old && old.name !== name) await rm(path.join(this.dir, old.name), { force: true });
    return { type: format, size: data.length, width, height };
  }

  async clear(): Promise<void> {
    const old = this.current();
    this.repo.delete(LOGO_KEY);
    if (old) await rm(path.join(this.dir, old.name), { force: true });
  }
}

/** Black or white, whichever reads better on `hex`. */
function onColour(hex: string): string {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0) > 0.4 ? '#111111' : '#ffffff';
}

/**
 * The colours' style, appended after the page's own. The values are #rrggbb (checked when saved and
 * when read back), so nothing else can reach the style sheet.
 */
export function brandStyle(colors: PublishColors | null): string {
  const logo = '.logo{display:block;max-height:72px;max-width:70%;margin:0 0 12px;object-fit:contain}';
  if (colors === null) return logo;
  const { background, text, accent } = colors;
  return (
    `${logo}body{background:${background};color:${text}}.meta,.empty,footer,.lock p,.welcome{color:${text};opacity:.78}` +
    `.btn,.lock button,.dl{background:${accent};color:${onColour(accent)}}.t{background:${text}22}`
  );
}
