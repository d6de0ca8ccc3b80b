import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { startSimulator } from '../../server/capture/simulator/simulator.server.js';
import { cameraJpeg } from './seed.js';

/**
 * The capture app for the share bench, in a process of its own (its work is not Boothdeck's):
 * the simulator on the seeded folder. Each `photo` line on stdin takes a photo whose processed
 * file is then a camera-sized JPEG (4000×3000, about 3.7 MB), written before Boothdeck has asked
 * for the new item (the simulator announces it first; Boothdeck's question takes a round trip).
 * Prints its address, then one JSON line per photo.
 */
const [dataDir] = process.argv.slice(2);
const camera = await cameraJpeg();
const sim = await startSimulator({ dataDir: dataDir as string, password: '0000', autoCaptureSeconds: 0, timeScale: 1 });
console.log(JSON.stringify({ url: sim.url }));
let n = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'photo') return;
  void sim.capture(`Soirée ${++n}`).then((item) => {
    const announcedAt = Date.now();
    const file = path.join(sim.dataDir, item.processed);
    writeFileSync(`${file}.tmp`, camera);
    renameSync(`${file}.tmp`, file);
    console.log(JSON.stringify({ id: item.id, announcedAt }));
  });
});
process.stdin.on('end', () => void sim.stop().then(() => process.exit(0)));
