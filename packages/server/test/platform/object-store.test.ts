import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../../src/core/storage/object-store';
import { openObjectStore } from '../../src/core/storage/open-object-store';
import { parseStorageUrl } from '../../src/core/storage/storage-url';
import { startS3, type RunningS3 } from '../kit/s3-server';

let s3: RunningS3;
const scratch = mkdtempSync(join(tmpdir(), 'svc-store-'));
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const stores: [string, () => ObjectStore][] = [
  ['disk', () => openObjectStore(undefined, 'media', join(scratch, 'disk'))],
  ['s3 (s3rver)', () => openObjectStore(s3.storageUrl('tenant-files'), 'media', '/nowhere')],
];

describe.each(stores)('object store: %s', (_name, open) => {
  it('puts, reads, lists and deletes objects, and answers null for a missing one', async () => {
    const store = open();
    await store.put('assets/mas_1/index.m3u8', '#EXTM3U\n');
    const file = join(scratch, 'segment.ts');
    writeFileSync(file, Buffer.alloc(100_000, 7));
    await store.putFile('assets/mas_1/0.ts', file);
    await store.put('assets/mas_2/index.m3u8', 'other');
    await store.put('uploads/mup_1', Buffer.from('video bytes'));

    expect((await store.get('assets/mas_1/index.m3u8'))?.toString()).toBe('#EXTM3U\n');
    expect((await store.get('assets/mas_1/0.ts'))?.length).toBe(100_000);
    expect(await store.get('assets/mas_1/9.ts')).toBeNull();
    expect((await store.list('assets/mas_1/')).sort()).toEqual(['assets/mas_1/0.ts', 'assets/mas_1/index.m3u8']);
    expect((await store.list('uploads/mup_')).sort()).toEqual(['uploads/mup_1']);

    const copy = join(scratch, 'copy');
    expect(await store.getFile('uploads/mup_1', copy)).toBe(true);
    expect(readFileSync(copy, 'utf8')).toBe('video bytes');
    expect(await store.getFile('uploads/mup_9', copy)).toBe(false);

    await store.deletePrefix('assets/mas_1/');
    expect(await store.list('assets/mas_1/')).toEqual([]);
    expect(await store.list('assets/')).toEqual(['assets/mas_2/index.m3u8']);
    await store.delete('uploads/mup_1');
    await store.delete('uploads/mup_1');
    expect(await store.get('uploads/mup_1')).toBeNull();
  });

  it('refuses keys that could leave the store', async () => {
    const store = open();
    for (const key of ['../etc/passwd', '/abs', 'a/../../b', 'a b']) await expect(store.get(key)).rejects.toThrow(/not a storage key/);
  });
});

describe('SVC_STORAGE_URL', () => {
  it('reads the endpoint, bucket, prefix, region, path style and credentials', () => {
    expect(parseStorageUrl('s3://minio:s%2Fcret@minio:9000/svc/prod?region=eu-west-1&force_path_style=true&tls=false')).toEqual({
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      bucket: 'svc',
      prefix: 'prod/',
      forcePathStyle: true,
      credentials: { accessKeyId: 'minio', secretAccessKey: 's/cret' },
    });
    expect(parseStorageUrl('s3://s3.eu-west-1.amazonaws.com/media-bucket?region=eu-west-1')).toMatchObject({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      prefix: '',
      forcePathStyle: false,
      credentials: undefined,
    });
  });

  it('explains a URL it cannot use, without echoing the secret', () => {
    for (const bad of ['http://x/b', 's3://host', 's3://k:s3cr3t@host/b?colour=red', 's3://k@host/b', 's3://k:s3cr3t@host/b?tls=maybe']) {
      expect(() => parseStorageUrl(bad)).toThrow(/SVC_STORAGE_URL must look like/);
      try {
        parseStorageUrl(bad);
      } catch (err) {
        expect((err as Error).message).not.toContain('s3cr3t');
      }
    }
  });
});
