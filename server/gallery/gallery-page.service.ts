import { readFileSync, statSync } from 'node:fs';
import type { Logger } from '../core/logger.js';
import { compress, type Encoding } from '../http/compress.js';
import { contentSecurityPolicy, inlineScriptsOf } from '../http/content-security.js';
import { FIRST_SCREEN_PHOTOS, type PhotoService } from '../photos/photo.service.js';
import { renderGalleryPage, withLanguage, type GalleryFirstPage } from './gallery-shell.js';
import type { GuestLanguage } from './guest-language.js';

/**
 * Photos in the page itself: a phone's first screen twice over, a 1920×1080 screen once. More
 * come from the API as the guest scrolls.
 */
const FIRST_PAGE_SIZE = FIRST_SCREEN_PHOTOS;

interface Template {
  mtimeMs: number;
  text: string;
  /** The page's policy, which allows its own inline script by hash and no other. */
  policy: string;
}

export interface GalleryPage {
  body: Buffer;
  policy: string;
}

/**
 * The public gallery's page, with its first page of photos drawn in and inlined: a guest's
 * phone sees photos before the app's script has run, and the app asks nothing for its first
 * page. Made once per state of the gallery and encoding, not per request.
 */
export class GalleryPageService {
  private template: Template | undefined;
  private readonly made = new WeakMap<GalleryFirstPage, { template: Template; bodies: Map<string, Buffer> }>();

  constructor(
    private readonly templateFile: string,
    private readonly photos: PhotoService,
    private readonly log: Logger,
  ) {}

  /**
   * The page's bytes in `encoding`, marked with the guest's `language` when known; undefined
   * while the front end is not built.
   */
  page(encoding: Encoding, language: GuestLanguage | null = null): GalleryPage | undefined {
    const template = this.readTemplate();
    if (!template) return undefined;
    const text = withLanguage(template.text, language);
    let first: GalleryFirstPage;
    try {
      first = this.photos.listPublic(undefined, FIRST_PAGE_SIZE);
    } catch (err) {
      // The app then asks the API for its first page, and shows the guest a sentence if that fails too.
      this.log.error('The gallery page was sent without its first page of photos', err);
      return { body: compress(text, encoding), policy: template.policy };
    }
    let entry = this.made.get(first);
    if (!entry || entry.template !== template) {
      entry = { template, bodies: new Map() };
      this.made.set(first, entry);
    }
    const key = `${encoding} ${language ?? ''}`;
    let body = entry.bodies.get(key);
    if (!body) {
      body = compress(renderGalleryPage(text, first) ?? text, encoding);
      entry.bodies.set(key, body);
    }
    return { body, policy: template.policy };
  }

  /** The built page, read again only when a new build replaced it. */
  private readTemplate(): Template | undefined {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.templateFile).mtimeMs;
    } catch {
      return undefined;
    }
    if (this.template?.mtimeMs !== mtimeMs) {
      const text = readFileSync(this.templateFile, 'utf8');
      this.template = { mtimeMs, text, policy: contentSecurityPolicy(inlineScriptsOf(text)) };
    }
    return this.template;
  }
}
