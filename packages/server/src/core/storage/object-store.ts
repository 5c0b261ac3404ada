/**
 * Where files the service keeps live: a local directory, or a bucket of S3-compatible storage
 * (`SVC_STORAGE_URL`). Keys are relative paths (`assets/<ref>/index.m3u8`). Nothing here is public: objects
 * are read back by the server, after the playback token or API key was checked.
 */
export interface ObjectStore {
  /** For logs: `disk /var/lib/svc/media` or `s3 http://minio:9000/svc/media/` (never the credentials). */
  readonly description: string;
  put(key: string, body: Buffer | string, options?: PutOptions): Promise<void>;
  /** Copies the file at `path` into `key`; the file stays (the caller removes its scratch copy). */
  putFile(key: string, path: string, options?: PutOptions): Promise<void>;
  /** The object's bytes, or `null` when there is no such object. */
  get(key: string): Promise<Buffer | null>;
  /** Writes the object into the file at `path`; `false` when there is no such object. */
  getFile(key: string, path: string): Promise<boolean>;
  /** Keys under `prefix`, in no stated order. */
  list(prefix: string): Promise<string[]>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
}

/** What a bucket keeps with an object (a directory keeps neither): by default the type `contentTypeOf` the key. */
export interface PutOptions {
  contentType?: string;
  /** `Cache-Control` of the object, for anything that reads the bucket through HTTP. */
  cacheControl?: string;
}

const KEY = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*\/?$/;

/** Refuses a key that could leave the store's root (`..`, absolute paths, odd characters). */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) throw new Error(`not a storage key: ${key}`);
  return key;
}

/** The content type the playback routes and a CDN expect for the files the service stores. */
export function contentTypeOf(key: string): string {
  if (key.endsWith('.m3u8')) return 'application/vnd.apple.mpegurl';
  if (key.endsWith('.ts')) return 'video/mp2t';
  return 'application/octet-stream';
}

