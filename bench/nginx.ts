/**
 * nginx on loopback, serving the same dist/ folder, as the machine's reference for static files
 * (a reference, not a target). Used only where nginx is installed (Debian package `nginx`); the
 * benchmark notes its absence and goes on without it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import type { Server } from "./load.js";

/** Where Debian installs it, which is not on every user's PATH. */
const DEBIAN_NGINX = "/usr/sbin/nginx";
const LOOPBACK = "127.0.0.1";
/** How long nginx may take to accept connections. */
const START_TIMEOUT_MS = 5_000;

/** The nginx executable, or undefined when it is not installed. */
export function findNginx(): string | undefined {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  return [...dirs.map((dir) => join(dir, "nginx")), DEBIAN_NGINX].find((path) => existsSync(path));
}

/** A port free on loopback at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, LOOPBACK, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// One process (master_process off), so it runs as the user that started it and needs no system
// folders; logs and temporary files stay in `dir`. No access log: it would measure the disk.
function config(dir: string, root: string, port: number): string {
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `  ${kind}_temp_path ${join(dir, kind)};`)
    .join("\n");
  return `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} error;
events { worker_connections 256; }
http {
  access_log off;
${temp}
  types { application/json json; }
  default_type application/octet-stream;
  keepalive_requests 1000000;
  server {
    listen ${LOOPBACK}:${port};
    root ${root};
  }
}
`;
}

async function accepting(url: URL, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Starts nginx serving `root` on a loopback port; `dir` holds its configuration and logs. */
export async function startNginx(nginx: string, root: string, dir: string): Promise<Server> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const file = join(dir, "nginx.conf");
  await writeFile(file, config(dir, root, port));
  // -e: the error log before the configuration is read (nginx 1.19.5 and later).
  const child = spawn(nginx, ["-p", dir, "-e", join(dir, "error.log"), "-c", file], {
    stdio: "ignore",
  });
  const url = new URL(`http://${LOOPBACK}:${port}/`);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await accepting(url, child);
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
