/**
 * Whether a process of this id runs (on this machine, in this pid namespace). One of another
 * user's counts: signalling it is refused (EPERM), not unknown (ESRCH).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
