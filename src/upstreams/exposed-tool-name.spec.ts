import { exposedToolName } from './exposed-tool-name';
import { ToolNamingOptions } from './tool-naming.options';

const DEFAULT: ToolNamingOptions = { separator: '__', allowDots: false };
const CLIENT_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

function nameOf(namespace: string, tool: string, options = DEFAULT): string {
  const result = exposedToolName(namespace, tool, options);
  if (!result.ok) throw new Error(`unexpected refusal: ${result.reason}`);
  return result.name;
}

/** A tool name that makes `gh__<tool>` exactly `length` characters long. */
function toolForLength(length: number, fill = 'a'): string {
  return fill.repeat(length - 'gh__'.length);
}

describe('exposedToolName', () => {
  it('joins namespace, separator and tool', () => {
    expect(nameOf('github', 'search_issues')).toBe('github__search_issues');
    expect(nameOf('github', 'search', { separator: '-', allowDots: false })).toBe('github-search');
    expect(nameOf('github', 'search', { separator: '_-_-', allowDots: false })).toBe(
      'github_-_-search',
    );
    expect(nameOf('fs', 'read', { separator: '.', allowDots: true })).toBe('fs.read');
  });

  it('throws on a separator the config refuses', () => {
    for (const separator of ['', '.', '/', '_____', ' ']) {
      expect(() => exposedToolName('gh', 'x', { separator, allowDots: false })).toThrow(
        'invalid tool name separator',
      );
    }
    expect(() => exposedToolName('gh', 'x', { separator: '::', allowDots: true })).toThrow();
  });

  it('keeps names of 63 and 64 characters as they are', () => {
    for (const length of [63, 64]) {
      const result = exposedToolName('gh', toolForLength(length), DEFAULT);
      expect(result).toEqual({ ok: true, name: `gh__${toolForLength(length)}`, shortened: false });
    }
  });

  it('shortens 65- and 200-character names to exactly 64: a prefix, "-" and 8 hex', () => {
    for (const length of [65, 200]) {
      const full = `gh__${toolForLength(length)}`;
      const result = exposedToolName('gh', toolForLength(length), DEFAULT);
      if (!result.ok) throw new Error(result.reason);
      expect(result.shortened).toBe(true);
      expect(result.name).toHaveLength(64);
      expect(result.name).toMatch(CLIENT_SAFE);
      expect(result.name.slice(0, 55)).toBe(full.slice(0, 55));
      expect(result.name).toMatch(/-[0-9a-f]{8}$/);
    }
  });

  it('shortens deterministically, and names sharing a long prefix stay apart', () => {
    // The example of docs/federation.md: a change here renames tools that clients may have saved.
    expect(nameOf('github', 'search_issues_in_every_repository_of_the_organisation_by_label')).toBe(
      'github__search_issues_in_every_repository_of_the_organi-a9fd26ed',
    );
    const common = 'x'.repeat(70);
    const first = nameOf('gh', `${common}_list`);
    expect(nameOf('gh', `${common}_list`)).toBe(first);
    const second = nameOf('gh', `${common}_read`);
    expect(second).not.toBe(first);
    expect(second.slice(0, 55)).toBe(first.slice(0, 55));
    // The same tool under another namespace is another name too.
    expect(nameOf('gl', `${common}_list`)).not.toBe(first);
  });

  it('refuses tool names with characters clients refuse, naming them', () => {
    const dotted = exposedToolName('fs', 'files.read', DEFAULT);
    expect(dotted.ok).toBe(false);
    if (!dotted.ok) {
      expect(dotted.reason).toContain('tool name "files.read" contains "."');
      expect(dotted.reason).toContain('not rewritten');
    }
    for (const tool of ['read file', 'ä', 'a/b', 'a:b', 'x\n', '']) {
      expect(exposedToolName('fs', tool, DEFAULT).ok).toBe(false);
    }
    const control = exposedToolName('fs', 'bad\u0007name', DEFAULT);
    expect(!control.ok && control.reason).toContain('"\\u0007"');
  });

  it('accepts "." only with allowDots, in tool names and separators alike', () => {
    const dots: ToolNamingOptions = { separator: '.', allowDots: true };
    expect(nameOf('fs', 'files.read', dots)).toBe('fs.files.read');
    expect(nameOf('fs', 'files.read', { separator: '__', allowDots: true })).toBe('fs__files.read');
    const refused = exposedToolName('fs', 'files/read', dots);
    expect(!refused.ok && refused.reason).toContain('"_", "-" and "."');
  });

  it('refuses an over-long upstream name without quoting all of it', () => {
    const result = exposedToolName('fs', 'a'.repeat(257), DEFAULT);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toContain('longer than 256 characters');
      expect(result.reason.length).toBeLessThan(200);
    }
    expect(exposedToolName('fs', 'a'.repeat(256), DEFAULT).ok).toBe(true);
  });

  it('refuses a namespace that clients would refuse', () => {
    const result = exposedToolName('my ns', 'read', DEFAULT);
    expect(!result.ok && result.reason).toContain('namespace "my ns" contains " "');
  });
});
