/**
 * A client's reading of a server-sent event stream, for the tests and the soak bench alike:
 * frames end at a blank line, and a frame without an `event:` line (the service's keep-alive
 * comments) is passed over. Written apart from the service's writer (`companion/service/sse.ts`),
 * so a mistake in one is not repeated in the other; Node built-ins only, as all of tools/.
 */

/**
 * Returns what to feed each chunk of the stream's text to; `onEvent` gets every complete frame's
 * event name and its `data:` line (undefined when the frame has none), in order.
 */
export function sseFrames(onEvent: (event: string, data: string | undefined) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      if (event !== undefined) onEvent(event, /^data: (.*)$/m.exec(frame)?.[1]);
    }
  };
}
