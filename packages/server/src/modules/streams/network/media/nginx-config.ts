import { join } from 'node:path';
import { INGEST_APP, MEDIA_APP, type MediaLayout } from './media-layout';

export interface NginxConfigInput {
  layout: MediaLayout;
  modulePath: string;
  /** Address and port encoders connect to. */
  rtmpListen: string;
  rtmpPort: number;
  /** Base of the Svc server's internal hooks, e.g. `http://127.0.0.1:4000/internal/media`; carries its secret. */
  hookBase: string;
  hookSecret: string;
  /** Fragment length and how much of the broadcast the live playlist (and the disk) keeps. */
  fragmentSeconds: number;
  dvrWindowSeconds: number;
  /** Worker user when nginx starts as root (it then drops privileges); `null` otherwise. */
  user: string | null;
}

/**
 * nginx's configuration for the media network. Two RTMP applications:
 * - `live` takes encoders: `on_publish` asks the Svc server, which checks the stream key and answers with a
 *   redirect to `rtmp://127.0.0.1/media/<ref>`, so the key never names a file or a stream past this point;
 * - `media` is loopback-only: nginx relays each authorised ingest into it, where HLS and the recording are written.
 * The HTTP side is only the control module, on a unix socket the server uses to drop publishers.
 */
export function renderNginxConfig(c: NginxConfigInput): string {
  const hook = (name: string) => `${c.hookBase}/${name}?secret=${c.hookSecret}`;
  const tmp = join(c.layout.nginx, 'tmp');
  return `# Written by the Svc server at each start; edits are lost.
load_module ${c.modulePath};
daemon off;
master_process on;
worker_processes 1;
${c.user ? `user ${c.user};` : ''}
pid ${join(c.layout.nginx, 'nginx.pid')};
error_log stderr warn;
events { worker_connections 4096; }

rtmp {
  server {
    listen ${c.rtmpListen}:${c.rtmpPort};
    chunk_size 4096;
    ping 10s;
    ping_timeout 10s;

    application ${INGEST_APP} {
      live on;
      deny play all;
      notify_method post;
      on_publish ${hook('on_publish')};
      on_publish_done ${hook('on_publish_done')};
      drop_idle_publisher 10s;
    }

    application ${MEDIA_APP} {
      live on;
      allow publish 127.0.0.1;
      deny publish all;
      allow play 127.0.0.1;
      deny play all;
      idle_streams off;

      hls on;
      hls_path ${c.layout.live};
      hls_nested on;
      hls_fragment ${c.fragmentSeconds}s;
      hls_playlist_length ${c.dvrWindowSeconds}s;
      hls_fragment_naming sequential;
      hls_cleanup on;

      record all;
      record_path ${c.layout.recordings};
      record_unique on;
    }
  }
}

http {
  access_log off;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  server {
    listen unix:${join(c.layout.nginx, 'control.sock')};
    location /control { rtmp_control all; }
  }
}
`;
}
