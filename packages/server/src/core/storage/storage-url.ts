/** What `SVC_STORAGE_URL` says: an S3-compatible endpoint, a bucket, a key prefix and the credentials. */
export interface StorageTarget {
  endpoint: string;
  region: string;
  bucket: string;
  /** Empty, or a path ending in `/` that every key is put under. */
  prefix: string;
  forcePathStyle: boolean;
  /** Absent: the AWS SDK's own chain (environment, instance or pod role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export class StorageUrlError extends Error {}

const USAGE =
  'SVC_STORAGE_URL must look like s3://ACCESS_KEY:SECRET@HOST[:PORT]/BUCKET[/PREFIX]?region=REGION' +
  '[&force_path_style=true][&tls=false] (credentials URL-encoded)';

/**
 * `s3://AKIA…:secret@s3.eu-west-1.amazonaws.com/svc-media?region=eu-west-1`, or for MinIO
 * `s3://minio:minio-secret@minio:9000/svc?region=us-east-1&force_path_style=true&tls=false`. `tls=false` talks
 * plain HTTP (a store on a private network or loopback); path style puts the bucket in the path, as MinIO wants.
 */
export function parseStorageUrl(value: string): StorageTarget {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new StorageUrlError(USAGE);
  }
  if (url.protocol !== 's3:' || !url.hostname) throw new StorageUrlError(USAGE);
  const [bucket, ...rest] = url.pathname.replace(/^\/+/, '').split('/').filter(Boolean);
  if (!bucket) throw new StorageUrlError(`${USAGE}: the bucket is missing`);
  const known = new Set(['region', 'force_path_style', 'tls']);
  for (const name of url.searchParams.keys()) if (!known.has(name)) throw new StorageUrlError(`${USAGE}: unknown option ${name}`);
  const flag = (name: string, fallback: boolean) => {
    const v = url.searchParams.get(name);
    if (v === null) return fallback;
    if (v !== 'true' && v !== 'false') throw new StorageUrlError(`${USAGE}: ${name} is true or false`);
    return v === 'true';
  };
  const user = decodeURIComponent(url.username);
  const secret = decodeURIComponent(url.password);
  if (Boolean(user) !== Boolean(secret)) throw new StorageUrlError(`${USAGE}: give both the access key and the secret, or neither`);
  const tls = flag('tls', true);
  return {
    endpoint: `${tls ? 'https' : 'http'}://${url.host}`,
    region: url.searchParams.get('region') ?? 'us-east-1',
    bucket,
    prefix: rest.length ? `${rest.join('/')}/` : '',
    forcePathStyle: flag('force_path_style', false),
    credentials: user ? { accessKeyId: user, secretAccessKey: secret } : undefined,
  };
}
