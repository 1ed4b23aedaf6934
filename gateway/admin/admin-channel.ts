import { chmodSync, unlinkSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AdminService } from "./admin-service.ts";
import { executeAdmin, type AdminCommand } from "./admin-commands.ts";

const MAX_BODY = 64 * 1024;

/**
 * The local-only admin channel of a running process: HTTP over a unix socket in the data
 * directory, readable and writable by the owner only. `svc admin` uses it while the service holds
 * the embedded store's lock.
 */
export async function startAdminChannel(socketPath: string, admin: AdminService): Promise<{ close(): Promise<void> }> {
  try {
    unlinkSync(socketPath); // a socket left by a crashed process
  } catch {
    // none
  }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on("end", () => {
      void (async () => {
        try {
          if (req.method !== "POST") throw new Error("POST a command");
          const cmd = JSON.parse(Buffer.concat(chunks).toString("utf8")) as AdminCommand;
          const result = await executeAdmin(admin, cmd);
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
        } catch (err) {
          res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: (err as Error).message }));
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        try {
          unlinkSync(socketPath);
        } catch {
          // gone
        }
      }),
  };
}

/** Sends a command to a running process's admin channel. */
export function sendAdminCommand(socketPath: string, cmd: AdminCommand, timeoutMs = 10_000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(cmd);
    const req = httpRequest(
      { socketPath, path: "/", method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
            if (res.statusCode === 200) resolve(parsed);
            else reject(new Error(typeof parsed.error === "string" ? parsed.error : `admin channel answered ${res.statusCode}`));
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("admin channel timed out")));
    req.on("error", reject);
    req.end(body);
  });
}
