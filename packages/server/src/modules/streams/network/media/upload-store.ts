import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../../../core/errors';

/** Writes a request body to `path`, stopping at `maxBytes` (`413 body_too_large`); a partial file is removed. */
export async function storeUpload(body: Readable, path: string, maxBytes: number): Promise<number> {
  let received = 0;
  let tooLarge = false;
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBytes && !tooLarge) {
      tooLarge = true;
      body.unpipe();
      body.resume();
    }
  });
  try {
    await pipeline(body, createWriteStream(path));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  if (tooLarge) {
    await rm(path, { force: true });
    throw ApiError.of('body_too_large', { message: `The file is larger than this upload takes (${maxBytes} bytes).` });
  }
  return received;
}
