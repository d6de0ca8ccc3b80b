import { readFileSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_FLAGS } from '../../playwright.config.js';

/**
 * Chromium's own omnibox drop-down, a WebUI page of some 500 requests and its scripts, is built in
 * every new browser window, even headless: each fresh visit the bench measures paid for it on the
 * same two cores as the gallery (a phone's browser does not). These features turn it off.
 */
const BROWSER_UI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
const DISABLE_FEATURES = '--disable-features=';

/**
 * The features Playwright itself turns off. Chromium keeps only the last `--disable-features` of a
 * command line, so ours must repeat Playwright's list; it is read from a browser Playwright started
 * rather than copied, so a Playwright upgrade cannot silently drop one.
 */
async function playwrightDisabledFeatures(executablePath: string): Promise<string[]> {
  const server = await chromium.launchServer({ executablePath, args: CHROMIUM_FLAGS });
  try {
    const pid = server.process().pid;
    const argv = pid === undefined ? [] : readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const flags = argv.filter((arg) => arg.startsWith(DISABLE_FEATURES));
    const last = flags[flags.length - 1];
    return last ? last.slice(DISABLE_FEATURES.length).split(',').filter(Boolean) : [];
  } finally {
    await server.close();
  }
}

/** Chromium as Playwright drives it, without the browser-interface work no guest's phone does. */
export async function launchBenchBrowser(executablePath: string): Promise<Browser> {
  const features = [...new Set([...(await playwrightDisabledFeatures(executablePath)), ...BROWSER_UI_FEATURES])];
  return chromium.launch({ executablePath, args: [...CHROMIUM_FLAGS, DISABLE_FEATURES + features.join(',')] });
}
