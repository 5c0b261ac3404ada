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
  stop: () => Promise<void>;
}

/** A real S3 API (s3rver) on a free loopback port, with one empty bucket, its files in a temporary directory. */
export async function startS3(bucket = 'svc-test'): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), 'svc-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    storageUrl: (prefix) => `s3://S3RVER:S3RVER@127.0.0.1:${port}/${bucket}${prefix ? `/${prefix}` : ''}?region=us-east-1&force_path_style=true&tls=false`,
    directory,
    bucket,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
