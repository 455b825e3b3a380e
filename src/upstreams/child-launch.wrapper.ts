import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { CHILD_GUARD_NAME, CHILD_GUARD_SCRIPT } from './child-guard.script';

/** The program the SDK's StdioClientTransport spawns for a record's command. */
export interface ChildLaunch {
  command: string;
  args: string[];
  /** The spawned pid leads its own process group, so `kill(-pid)` reaches every descendant. */
  ownsProcessGroup: boolean;
}

// Fixed system directories, not PATH: a record's PATH must not choose what wraps its children.
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];

let tools: { setpriv: string; setsid: string; sh: string } | null | undefined;

/**
 * Wraps `command args` in `setpriv --pdeathsig TERM -- setsid -- sh -c GUARD`
 * (util-linux, present on Debian and in node:*-slim images): the child gets the
 * parent-death signal, so it dies with the gateway even on `kill -9`, and
 * leads a new process group that closing can kill as one. Where the tools are
 * missing the command is spawned as it is, with one warning.
 */
export function wrapChildLaunch(command: string, args: string[]): ChildLaunch {
  const found = ownershipTools();
  if (!found) return { command, args, ownsProcessGroup: false };
  return {
    command: found.setpriv,
    args: [
      '--pdeathsig',
      'TERM',
      '--',
      found.setsid,
      '--',
      found.sh,
      '-c',
      CHILD_GUARD_SCRIPT,
      CHILD_GUARD_NAME,
      command,
      ...args,
    ],
    ownsProcessGroup: true,
  };
}

function ownershipTools(): { setpriv: string; setsid: string; sh: string } | null {
  if (tools !== undefined) return tools;
  const setpriv = executable('setpriv');
  const setsid = executable('setsid');
  const sh = executable('sh');
  tools = process.platform === 'linux' && setpriv && setsid && sh ? { setpriv, setsid, sh } : null;
  if (!tools) {
    new Logger('Upstreams').warn({
      msg: 'setpriv/setsid (util-linux) not found: stdio upstreams run without a process group or parent-death signal, so a grandchild may outlive the gateway',
    });
  }
  return tools;
}

function executable(name: string): string | undefined {
  for (const dir of SYSTEM_DIRS) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
