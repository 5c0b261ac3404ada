import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface RunningS3 {
  /** `SVC_STORAGE_URL` for the bucket, with `prefix` when given. */
  storageUrl: (prefix?: string) => string;
  /** Where s3rver keeps the bucket's objects, to look at them from outside S3. */
  directory: string;
  bucket: string;
  /** Stops answering (connections refused) until `resume`, on the same port and with the same objects. */
  pause: () => Promise<void>;
  resume: () => Promise<void>;
  stop: () => Promise<void>;
}

/** A real S3 API (s3rver) on a free loopback port, with one empty bucket, its files in a temporary directory. */
export async function startS3(bucket = 'svc-test'): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-s3-'));
  let server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  let running = true;
  return {
    storageUrl: (prefix) => `s3://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}?region=us-east-1&force_path_style=true&tls=false`,
    directory,
    bucket,
    pause: async () => {
      await server.close();
      running = false;
    },
    resume: async () => {
      server = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
      await server.run();
      running = true;
    },
    stop: async () => {
      if (running) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
