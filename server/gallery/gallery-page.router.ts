import { Router, type RequestHandler } from 'express';
import { preferredEncoding } from '../http/compress.js';
import { readCookie } from '../http/request-context.js';
import { sendNotBuilt } from '../http/static.js';
import type { GalleryPageService } from './gallery-page.service.js';
import { guestLanguage, LANGUAGE_COOKIE } from './guest-language.js';

/**
 * `GET /`: the public gallery's page, its first screen drawn in. `session` starts the guest's
 * session there, before any of the requests its photos make.
 */
export function galleryPageRouter(pages: GalleryPageService, session: RequestHandler): Router {
  const router = Router();
  router.get('/', session, (req, res) => {
    // The photos in it change with every capture: the page is asked again on every load. It may
    // start a guest's session: no shared cache keeps it.
    res.setHeader('Cache-Control', 'private, no-cache');
    const encoding = preferredEncoding(req);
    // In the guest's language from the first byte: the page's `lang`, and the app's first words.
    const language = guestLanguage(readCookie(req, LANGUAGE_COOKIE), req.get('Accept-Language'));
    const page = pages.page(encoding, language);
    if (!page) {
      sendNotBuilt(res);
      return;
    }
    res.vary('Accept-Encoding');
    res.vary('Accept-Language');
    res.setHeader('Content-Security-Policy', page.policy);
    // A guest's first visit opens the gallery in a new tab: with this header the browser must
    // move the page to a new process, a tenth of a second before anything is drawn. The page holds
    // nothing an opener could take (no admin session, an HttpOnly guest cookie), and framing
    // stays refused by the policy and X-Frame-Options.
    res.removeHeader('Cross-Origin-Opener-Policy');
    if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
    res.type('html').send(page.body);
  });
  return router;
}
