/**
 * What a data-quality rule is: one object, with its id, its scope, its check and the text
 * docs/editing.md shows, registered in the one list of rules.ts. The scope says when the check
 * runs and what it is given; per-file.ts and pass.ts run every rule of the list by its scope, so
 * adding a rule is adding its object (docs/contributing.md, "Adding a data-quality rule").
 */
import type { DatasetDefinition } from "../core/datasets.js";
import type { Place } from "../core/diagnostics.js";
import type { Point } from "../core/place.js";
import type { RecordFacts } from "../core/record-facts.js";
import type { KeptRecord, Spot } from "./facts.js";

/** What a check reports: where, and what is wrong; the runner adds the rule's id. */
export interface Finding extends Place {
  readonly message: string;
}

/**
 * A finding that many records can share one cause of (Country "UK" in every record of a feed):
 * the observations of one rule in one file with the same key are told once, at the first,
 * naming the others (docs/decisions.md#one-finding-per-cause).
 */
export interface Observation {
  /** Observations of one rule in one file with the same key are one finding. */
  readonly key: string;
  /** The finding as told when it is alone. */
  readonly alone: Finding;
  /** The record, as listed in a group: its Identification, or its place. */
  readonly label: string;
  /** The message of a group of `count` records, listed in `records`. */
  readonly together: (count: number, records: string) => string;
}

/** One record as the rules about a record alone read it, while its file is being checked. */
export interface RecordInFile {
  readonly file: string;
  /** The record's parsed value (valid against its schema). */
  readonly record: unknown;
  /** What the build reads of it (build/core/record-facts.ts). */
  readonly facts: RecordFacts;
  /** Its postcode area, when its Country's postcodes are Royal Mail's (places.ts). */
  readonly area: string | undefined;
  readonly pointer: string;
  readonly recordsKey: string;
  /** How the record is named among others that share a finding: its Identification, or its line. */
  readonly label: string;
  /** The place of a pointer in the file. */
  readonly spot: (pointer: string) => Spot;
  /** Where the file's postcode areas are, by its own records (places.ts areaCentres). */
  readonly centres: ReadonlyMap<string, Point>;
  /**
   * What rules work out of this record once for several of them to read (hours.ts its days,
   * places.ts its coordinates' fault), by name: held by the record, so it lasts as long as the
   * file's check.
   */
  readonly worked: Map<string, unknown>;
}

/** One file's records, as the rules about the records of one file together read them. */
interface FileInCheck {
  readonly file: string;
  readonly records: readonly RecordInFile[];
  readonly centres: ReadonlyMap<string, Point>;
}

/** One record, as the rules across files read it: what its file's check kept, and where it is. */
export interface RecordInContext {
  readonly file: string;
  readonly dataset: DatasetDefinition;
  /** The BrandName of the record's brand. */
  readonly brand: string;
  readonly record: KeptRecord;
}

/** One brand file's BrandName, with the data set it is in. */
export interface BrandNameUse {
  readonly value: string;
  readonly dataset: string;
  readonly file: string;
  readonly spot: Spot;
}

/** Everything the rules across files are given, on every build. */
export interface ContentInPass {
  /** Every record of every valid brand file, in join order. */
  readonly records: readonly RecordInContext[];
  readonly brandNames: readonly BrandNameUse[];
  /** Today, YYYY-MM-DD (UTC). */
  readonly today: string;
}

/** What every rule has: its id and the text docs/editing.md's table and the --quality report show. */
interface RuleBase {
  /** Stable: what site.yaml's QualityErrors names, what findings carry as their rule. */
  readonly id: string;
  /** What it looks for, in an editor's words (Markdown): docs/editing.md's row, word for word. */
  readonly text: string;
}

/**
 * A rule about one record alone: run while its file is checked (on the check threads), its
 * findings cached with the file. Its observations of one cause in one file are one finding.
 */
export interface RecordRule extends RuleBase {
  readonly scope: "record";
  readonly check: (record: RecordInFile) => readonly (Finding | Observation)[];
}

/** A rule about the records of one file together: run and cached as a record rule is. */
export interface FileRule extends RuleBase {
  readonly scope: "file";
  readonly check: (file: FileInCheck) => readonly Finding[];
}

/**
 * A rule across files and data sets: run on every build by the pass (step 4), on what each
 * file's check kept, so a rebuild runs it without parsing unchanged files; and a rule that
 * depends on the day, which is never cached.
 */
export interface ContentRule extends RuleBase {
  readonly scope: "content";
  readonly check: (content: ContentInPass) => readonly Finding[];
}

export type QualityRule = RecordRule | FileRule | ContentRule;

/** Whether a record rule's result is an observation to group, or a finding told as it is. */
export const isObservation = (result: Finding | Observation): result is Observation =>
  "key" in result;
