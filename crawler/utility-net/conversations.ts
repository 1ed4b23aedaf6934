import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { UnreachableError, type SmtpReply, type TlsProbe } from "../../utilities/index.ts";
import { NET_BUDGET } from "./net-budget.ts";

// The conversations of the network utilities over a socket the egress dialled (utility-net.ts):
// a WHOIS query, an SMTP probe, what a TLS handshake showed. They only read and write the socket
// they are given; none opens one.

/** Sends a WHOIS query and reads the reply (at most NET_BUDGET.whoisBytes) until the server closes. */
export function whoisConversation(socket: Socket, query: string, host: string): Promise<string> {
  return new Promise<string>((done, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => socket.destroy(new Error("no answer within 10 s")), NET_BUDGET.ttfbMs);
    socket.write(`${query}\r\n`);
    socket.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > NET_BUDGET.whoisBytes) socket.end();
      else chunks.push(chunk);
    });
    socket.once("close", () => {
      clearTimeout(timer);
      done(Buffer.concat(chunks).toString("utf8"));
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(new UnreachableError(`the WHOIS server ${host} did not answer: ${describeError(err)}`));
    });
  });
}

/**
 * Holds an SMTP probe: the greeting, then each command in turn (commands[0] is "" for the
 * greeting) until a refusal (4xx, 5xx, then QUIT) or the last; answers the replies read.
 */
export function smtpConversation(socket: Socket, commands: readonly string[], ip: string): Promise<SmtpReply[]> {
  return new Promise<SmtpReply[]>((done, reject) => {
    const replies: SmtpReply[] = [];
    let buffer = "";
    let step = 0;
    const timer = setTimeout(() => socket.destroy(new Error("no answer within 10 s")), NET_BUDGET.ttfbMs);
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      done(replies);
    };
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("latin1");
      if (buffer.length > 64 * 1024) return finish();
      // A reply ends with a line "NNN text" (a dash after the code continues it).
      for (;;) {
        const lines = buffer.split("\r\n");
        const last = lines.findIndex((l) => /^\d{3}(?: |$)/.test(l));
        if (last < 0) return;
        const reply = lines.slice(0, last + 1);
        buffer = lines.slice(last + 1).join("\r\n");
        const code = Number((reply[last] as string).slice(0, 3));
        replies.push({ command: commands[step] === "" ? "(greeting)" : (commands[step] as string), code, text: reply.map((l) => l.slice(4)).join("\n") });
        step += 1;
        if (step >= commands.length || code >= 400) {
          if (code >= 400 && step < commands.length) socket.write("QUIT\r\n");
          return finish();
        }
        socket.write(`${commands[step]}\r\n`);
      }
    });
    socket.once("close", () => finish());
    socket.once("error", (err) => {
      clearTimeout(timer);
      if (replies.length > 0) done(replies);
      else reject(new UnreachableError(`the mail server ${ip} did not answer: ${describeError(err)}`));
    });
  });
}

/** What a completed TLS handshake showed; the socket is closed. */
export function tlsProbeOf(socket: TLSSocket, ocspStapled: boolean): TlsProbe {
  const cert = socket.getPeerCertificate();
  const out: TlsProbe = {
    ok: true,
    error: null,
    protocol: socket.getProtocol() ?? null,
    cipher: socket.getCipher()?.name ?? null,
    alpn: typeof socket.alpnProtocol === "string" ? socket.alpnProtocol : null,
    ocsp_stapled: ocspStapled,
    cert_valid_to: cert && cert.valid_to ? new Date(cert.valid_to).toISOString() : null,
    authorized: socket.authorized,
  };
  socket.end();
  socket.destroy();
  return out;
}

/** A socket error in a utility's words. */
export function describeError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET") return "connection reset";
  if (code === "ABORT_ERR") return "the run's time is over";
  if (code && /CERT|SELF_SIGNED|UNABLE_TO/.test(code)) return `certificate error (${code})`;
  return err.message;
}
