/**
 * WebSocket at the byte level, for hostile tests: hand-built frames (masked
 * or not, any opcode, any close code) written straight after the upgrade
 * request, and what came back: the HTTP status and the server's close code.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

export function frame(opcode: number, payload: Buffer | string, opts: { mask?: boolean; fin?: boolean; rsv?: number } = {}): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const mask = opts.mask ?? true;
  const head: number[] = [((opts.fin ?? true) ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | (opcode & 0x0f)];
  const m = mask ? 0x80 : 0;
  let ext = Buffer.alloc(0);
  if (data.length < 126) head.push(m | data.length);
  else if (data.length < 65536) {
    head.push(m | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(data.length);
  } else {
    head.push(m | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(BigInt(data.length));
  }
  if (!mask) return Buffer.concat([Buffer.from(head), ext, data]);
  const key = randomBytes(4);
  const masked = Buffer.from(data);
  for (let i = 0; i < masked.length; i++) masked[i] = (masked[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([Buffer.from(head), ext, key, masked]);
}

export function closeFrame(code: number | null, reason = ''): Buffer {
  if (code === null) return frame(0x8, Buffer.alloc(0));
  const b = Buffer.alloc(2);
  b.writeUInt16BE(code);
  return frame(0x8, Buffer.concat([b, Buffer.from(reason)]));
}

export interface WsOutcome {
  /** HTTP status of the upgrade answer (101 when upgraded; 0 if none). */
  status: number;
  /** The server's close code, null when it sent none (dropped the socket, or still open at the timeout). */
  closeCode: number | null;
  /** Text messages the server sent before closing. */
  messages: string[];
}

/** Upgrades `path` with `headers`, writes `frames` (in the same write as the request when `sameWrite`, else once the 101 arrived), and collects the answer for up to `ms`. */
export function wsRaw(
  port: number,
  path: string,
  headers: Record<string, string>,
  frames: Buffer[],
  opts: { ms?: number; sameWrite?: boolean } = {},
): Promise<WsOutcome> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    let status = 0;
    let closeCode: number | null = null;
    const messages: string[] = [];
    let headerDone = false;
    // With sameWrite false, the frames wait for the server's 101 (sent once the upgrade is accepted).
    let afterUpgrade: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ status, closeCode, messages });
    };
    const timer = setTimeout(finish, opts.ms ?? 2000);
    const parse = () => {
      if (!headerDone) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        status = Number(/^HTTP\/1\.1 (\d{3})/.exec(buf.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        buf = buf.subarray(end + 4);
        headerDone = true;
        if (status !== 101) return finish();
        for (const f of afterUpgrade) if (!sock.destroyed) sock.write(f);
        afterUpgrade = [];
      }
      while (buf.length >= 2) {
        const op = (buf[0] as number) & 0x0f;
        let len = (buf[1] as number) & 0x7f;
        let off = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          off = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2));
          off = 10;
        }
        if (buf.length < off + len) return;
        const payload = buf.subarray(off, off + len);
        buf = buf.subarray(off + len);
        if (op === 0x1) messages.push(payload.toString('utf8'));
        if (op === 0x8) {
          closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
          return finish();
        }
      }
    };
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      parse();
    });
    sock.on('error', finish);
    sock.on('close', finish);
    sock.on('connect', () => {
      const hasHost = Object.keys(headers).some((k) => k.toLowerCase() === 'host');
      const head = [
        `GET ${path} HTTP/1.1`,
        ...(hasHost ? [] : [`Host: 127.0.0.1:${port}`]),
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        '',
        '',
      ].join('\r\n');
      if (opts.sameWrite ?? true) sock.write(Buffer.concat([Buffer.from(head, 'latin1'), ...frames]));
      else {
        afterUpgrade = frames;
        sock.write(head, 'latin1');
      }
    });
  });
}
