import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { GATEWAY_CONFIG } from '../config/config.constants';
import { GatewayConfig } from '../config/gateway-config';
import { SkillTextSource } from '../tools/skill-text-source';
import { SkillRecord } from './skill-record';
import { scanSkill, scanSkills, ScanWarning } from './skill-scanner';
import { SkillsWatcher } from './skills-watcher';

export interface CatalogChange {
  /** Seed URIs of skills added, removed or changed. */
  changedSkillUris: string[];
  /** True when the set of skills or their list metadata changed. */
  listChanged: boolean;
}

const WATCH_DEBOUNCE_MS = 150;

/**
 * The skills directory as an in-memory catalog, kept current by a debounced
 * watch of every directory under it (symbolic links never followed): only
 * the skills whose files changed are scanned again.
 */
@Injectable()
export class SkillCatalog implements SkillTextSource, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SkillCatalog.name);
  private readonly skills = new Map<string, SkillRecord>();
  private readonly listeners = new Set<(change: CatalogChange) => void>();
  private currentVersion = 0;
  private root?: string;
  private watcher?: SkillsWatcher;
  private pending = new Set<string>();
  private debounce?: NodeJS.Timeout;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  onModuleInit(): void {
    const dir = resolve(this.config.resources.skills_dir);
    if (!existsSync(dir)) {
      this.logger.warn({ msg: 'skills directory does not exist; no skills served', dir });
      return;
    }
    this.root = realpathSync(dir);
    this.rescanAll();
    this.watch();
  }

  onModuleDestroy(): void {
    this.watcher?.close();
    clearTimeout(this.debounce);
  }

  get version(): number {
    return this.currentVersion;
  }

  /** Real path of the skills directory (undefined when it does not exist). */
  get rootDir(): string | undefined {
    return this.root;
  }

  list(): SkillRecord[] {
    return [...this.skills.values()];
  }

  get(category: string, name: string): SkillRecord | undefined {
    return this.skills.get(key(category, name));
  }

  /** SkillTextSource: the body of `<category>/<name>`'s SKILL.md, for tool descriptions. */
  skillBody(ref: string): string | undefined {
    const [category, name] = ref.split('/');
    return this.skills.get(key(category, name))?.body;
  }

  onChange(listener: (change: CatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Scans everything again (boot, and when a change cannot be pinned to one skill). */
  rescanAll(): CatalogChange {
    if (!this.root) return { changedSkillUris: [], listChanged: false };
    const { skills, warnings } = scanSkills(this.root);
    this.report(warnings);
    const before = new Map(this.skills);
    this.skills.clear();
    for (const skill of skills) {
      this.skills.set(key(skill.category, skill.name), skill);
      this.reportExclusion(skill);
    }
    const changed = [...new Set([...before.keys(), ...this.skills.keys()])].filter(
      (k) =>
        before.get(k)?.etag !== this.skills.get(k)?.etag ||
        !sameFiles(before.get(k), this.skills.get(k)),
    );
    return this.commit(
      changed.map((k) => (this.skills.get(k) ?? before.get(k))!.uri),
      changed.length > 0,
    );
  }

  /** Scans one skill again; returns what changed. */
  rescanSkill(category: string, name: string): CatalogChange {
    if (!this.root) return { changedSkillUris: [], listChanged: false };
    const warnings: ScanWarning[] = [];
    const before = this.skills.get(key(category, name));
    const after = scanSkill(this.root, category, name, warnings);
    this.report(warnings);
    if (after) {
      this.skills.set(key(category, name), after);
      this.reportExclusion(after);
    } else this.skills.delete(key(category, name));
    const uri = (after ?? before)?.uri;
    if (!uri || (before?.etag === after?.etag && sameFiles(before, after))) {
      return { changedSkillUris: [], listChanged: false };
    }
    return this.commit([uri], true);
  }

  private commit(changedSkillUris: string[], listChanged: boolean): CatalogChange {
    const change = { changedSkillUris, listChanged };
    if (changedSkillUris.length === 0 && !listChanged) return change;
    this.currentVersion++;
    for (const listener of this.listeners) listener(change);
    return change;
  }

  private watch(): void {
    if (!this.root) return;
    this.watcher = new SkillsWatcher(this.root, {
      changed: (relPath) => this.queue(relPath ?? null),
      refused: (link) =>
        this.logger.warn({
          msg: 'skills watcher: symbolic link leaves the skills directory; not followed',
          link,
        }),
      error: (err) => this.logger.warn({ msg: 'skills watcher error', error: err.message }),
    });
    this.watcher.start();
  }

  private queue(filename: string | Buffer | null): void {
    const parts = filename ? filename.toString().split(/[\\/]/) : [];
    this.pending.add(parts.length >= 2 ? key(parts[0], parts[1]) : '*');
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => this.flush(), WATCH_DEBOUNCE_MS);
    this.debounce.unref();
  }

  private flush(): void {
    const pending = [...this.pending];
    this.pending = new Set();
    if (pending.includes('*')) {
      this.rescanAll();
      return;
    }
    for (const entry of pending) {
      const [category, name] = entry.split('\u0000');
      this.rescanSkill(category, name);
    }
  }

  /** A skill that breaks the Skills extension's rules is left out of skills/list, never renamed. */
  private reportExclusion(skill: SkillRecord): void {
    if (skill.excludedFromSkillsList === undefined) return;
    this.logger.warn({
      msg: 'skill left out of skills/list',
      uri: skill.uri,
      reason: skill.excludedFromSkillsList,
    });
  }

  private report(warnings: ScanWarning[]): void {
    for (const warning of warnings) this.logger.warn({ msg: 'skills catalog', ...warning });
  }
}

function key(category: string, name: string): string {
  return `${category}\u0000${name}`;
}

function sameFiles(a: SkillRecord | undefined, b: SkillRecord | undefined): boolean {
  if (!a || !b || a.files.length !== b.files.length) return false;
  return a.files.every(
    (file, i) => file.relPath === b.files[i].relPath && file.digest === b.files[i].digest,
  );
}
