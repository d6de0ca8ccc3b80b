/**
 * The GPIO character device's line requests are ioctls, which Node cannot make; python3 (on
 * every Raspberry Pi OS image, and already what sets the SPI speed) makes them with fcntl. This
 * helper finds the SoC's GPIO chip among /dev/gpiochip* by its label, requests one line as an
 * output at its off level (GPIO_V2_GET_LINE_IOCTL: output flag and output value in the same
 * request, so the light never blinks), prints `ready <chip>`, then sets the line for each `0` or
 * `1` line it reads. When its input ends (Boothdeck gone, however it went, SIGKILL included) or it
 * is sent SIGTERM/SIGINT/SIGHUP, it drives the off level and exits: the kernel then releases the
 * line, which Raspberry Pi kernels leave at that level.
 *
 * Struct layouts and ioctl numbers are those of linux/gpio.h (uAPI v2, kernel 5.10+), the same on
 * arm64 and x86-64: gpiochip_info is 68 bytes (label at 32); gpio_v2_line_request is 592 bytes
 * (consumer at 256, config.flags at 288, config.num_attrs at 296, config.attrs at 320 in 24-byte
 * entries {id, padding, value, mask}, num_lines at 560, fd at 588); gpio_v2_line_values is
 * {bits, mask}. Arguments: labels (comma-separated), line offset, off level, device folder.
 */
export const GPIO_CDEV_HELPER = `
import fcntl, os, signal, struct, sys
labels, line, off, dev = sys.argv[1].split(','), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def label(fd):
    info = bytearray(68)
    fcntl.ioctl(fd, 0x8044B401, info)
    return bytes(info[32:64]).split(b'\\0')[0].decode('ascii', 'replace')
chip = None
denied = None
for name in sorted(n for n in os.listdir(dev) if n.startswith('gpiochip')):
    path = os.path.join(dev, name)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except PermissionError as e:
        denied = e
        continue
    try:
        if label(fd) in labels:
            chip = path
            break
    except OSError:
        pass
    os.close(fd)
if chip is None:
    print('error ' + ('denied' if denied else 'nochip'), flush=True)
    sys.exit(3)
req = bytearray(592)
struct.pack_into('=I', req, 0, line)
req[256:271] = b'boothdeck-relay'
struct.pack_into('=QI', req, 288, 1 << 3, 1)
struct.pack_into('=IIQQ', req, 320, 2, 0, off, 1)
struct.pack_into('=I', req, 560, 1)
try:
    fcntl.ioctl(fd, 0xC250B407, req)
except OSError as e:
    print('error busy' if e.errno == 16 else 'error request ' + str(e.errno), flush=True)
    sys.exit(4)
os.close(fd)
lfd = struct.unpack_from('=i', req, 588)[0]
def put(v):
    fcntl.ioctl(lfd, 0xC010B40F, struct.pack('=QQ', v, 1))
def stop(*_):
    put(off)
    os._exit(0)
for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(s, stop)
print('ready ' + chip, flush=True)
while True:
    raw = sys.stdin.buffer.readline()
    if not raw:
        break
    v = raw.strip()
    if v in (b'0', b'1'):
        put(int(v))
stop()
`;
