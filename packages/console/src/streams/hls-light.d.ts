/** hls.js's light build (no subtitles, no DRM) has the full build's API; its package names no types for it. */
declare module 'hls.js/light' {
  import Hls from 'hls.js';
  export default Hls;
}
