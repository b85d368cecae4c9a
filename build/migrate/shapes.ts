/**
 * Rewrites one product content file from the shapes older content of ours used to the shapes
 * 2.2.1 defines (open-data-api-v2.2-products.md, the corrections in its header), keeping comments
 * and layout: the file is edited as a YAML document (the yaml package's Document API) and only the
 * nodes that change are touched. Never drops a value: what 2.2.1 cannot say is refused, at its
 * file, line and column, with what to write instead, and the file is then left as it is.
 *
 * The moves:
 * - PCA card `Scheme: ["Visa"]` becomes `Scheme: "Visa"` (one value in 2.2.1);
 * - PCA `ResidencyEligibility: [{…}]` becomes the one object; an empty list is left out (the field
 *   is optional, and an empty list says nothing);
 * - SME loan repayment `RepaymentType: "Other"` beside `OtherRepaymentType` loses the code
 *   `Other`, which 2.2.1 does not list: the code object stands for it (docs/decisions.md).
 */
import { isMap, isScalar, isSeq, type Document, type Node as YamlNode, type YAMLMap } from "yaml";
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { showValue } from "../core/format.js";
import { parseYamlDocument } from "../read/yaml-source.js";

/** What migrating one file did: its new text (undefined when nothing changed) and why. */
export interface MigratedFile {
  /** The rewritten text; undefined when the file needs no change or cannot be migrated. */
  readonly text: string | undefined;
  /** Each rewrite, at the place it was made in the original file. */
  readonly changes: readonly Diagnostic[];
  /** What cannot be rewritten without losing a value (or a file that does not parse). */
  readonly refusals: readonly Diagnostic[];
}

/** The rule name the migration's messages carry. */
const MIGRATE_RULE = "migrate";

interface Context {
  readonly file: string;
  readonly place: (node: YamlNode | null | undefined) => { line: number; column: number };
  readonly changes: Diagnostic[];
  readonly refusals: Diagnostic[];
}

/** Migrates the text of one content file; `file` is the path printed in messages. */
export function migrateText(file: string, text: string): MigratedFile {
  const source = parseYamlDocument(file, text);
  if (source.diagnostics.length > 0)
    return { text: undefined, changes: [], refusals: source.diagnostics };
  const place = (node: YamlNode | null | undefined) => {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = source.lines.linePos(offset);
    return { line, column: col };
  };
  const context: Context = { file, place, changes: [], refusals: [] };
  migrateDocument(source.doc, context);
  const { changes, refusals } = context;
  if (refusals.length > 0 || changes.length === 0) return { text: undefined, changes, refusals };
  // No folding, as the importer writes and the sample content keeps: each value on its line.
  return { text: source.doc.toString({ lineWidth: 0 }), changes, refusals };
}

function migrateDocument(doc: Document.Parsed, context: Context): void {
  const root = doc.contents;
  if (!isMap(root)) return;
  for (const state of marketingStates(root, "PCA", "PCAMarketingState")) {
    const eligibility = state.node.get("Eligibility", true);
    if (isMap(eligibility)) residency(eligibility, pointerJoin(state.at, "Eligibility"), context);
    const features = state.node.get("FeaturesAndBenefits", true);
    const cards = isMap(features) ? features.get("Card", true) : undefined;
    if (isSeq(cards))
      cards.items.forEach((card, n) => {
        if (isMap(card)) scheme(card, `${state.at}/FeaturesAndBenefits/Card/${n}`, context);
      });
  }
  for (const state of marketingStates(root, "SMELoan", "SMELoanMarketingState")) {
    const repayments = state.node.get("Repayment", true);
    if (!isSeq(repayments)) continue;
    repayments.items.forEach((repayment, n) => {
      if (isMap(repayment)) repaymentType(repayment, `${state.at}/Repayment/${n}`, context);
    });
  }
}

/** Each product's marketing states, with the JSON pointer of each. */
function* marketingStates(
  root: YAMLMap,
  recordsKey: string,
  stateKey: string,
): Generator<{ node: YAMLMap; at: string }> {
  const products = root.get(recordsKey, true);
  if (!isSeq(products)) return;
  for (const [index, product] of products.items.entries()) {
    const states = isMap(product) ? product.get(stateKey, true) : undefined;
    if (!isSeq(states)) continue;
    for (const [n, state] of states.items.entries())
      if (isMap(state)) yield { node: state, at: `/${recordsKey}/${index}/${stateKey}/${n}` };
  }
}

function residency(eligibility: YAMLMap, at: string, context: Context): void {
  const list = eligibility.get("ResidencyEligibility", true);
  if (!isSeq(list)) return;
  const pointer = pointerJoin(at, "ResidencyEligibility");
  if (list.items.length === 0) {
    note(context, list, pointer, "left out an empty ResidencyEligibility list (an optional field)");
    eligibility.delete("ResidencyEligibility");
  } else if (list.items.length === 1 && isMap(list.items[0])) {
    note(context, list, pointer, "wrote the one ResidencyEligibility as a set of fields");
    eligibility.set("ResidencyEligibility", unwrap(list.items[0], list));
  } else
    refuse(
      context,
      list,
      pointer,
      `ResidencyEligibility lists ${list.items.length} items and 2.2.1 has one: merge them into one by hand (every country in its ResidencyIncluded), then run this again`,
    );
}

function scheme(card: YAMLMap, at: string, context: Context): void {
  const list = card.get("Scheme", true);
  if (!isSeq(list)) return;
  const pointer = pointerJoin(at, "Scheme");
  const only = list.items[0];
  // A list of one odd value (a number, a nested list) is the schema's error to report, not a move.
  if (list.items.length === 1 && !(isScalar(only) && typeof only.value === "string")) return;
  if (list.items.length === 1 && isScalar(only)) {
    note(context, list, pointer, `wrote Scheme as the one value ${showValue(only.value)}`);
    card.set("Scheme", unwrap(only, list));
  } else if (list.items.length === 0)
    refuse(
      context,
      list,
      pointer,
      'Scheme is an empty list and 2.2.1 needs the card\'s one scheme: write it, like Scheme: "Visa", then run this again',
    );
  else {
    const values = list.items.map((item) => (isScalar(item) ? showValue(item.value) : "a list"));
    refuse(
      context,
      list,
      pointer,
      `Scheme lists ${list.items.length} values (${values.join(", ")}) and 2.2.1 has one scheme per card, so no value is dropped here: describe each scheme's card as its own Card item, or keep only the scheme the card is issued on, then run this again`,
    );
  }
}

function repaymentType(repayment: YAMLMap, at: string, context: Context): void {
  const code = repayment.get("RepaymentType", true);
  if (!isScalar(code) || code.value !== "Other" || !repayment.has("OtherRepaymentType")) return;
  note(
    context,
    code,
    pointerJoin(at, "RepaymentType"),
    'left out RepaymentType "Other", which 2.2.1 does not list; OtherRepaymentType says what it is',
  );
  repayment.delete("RepaymentType");
}

/** The one item of `list`, carrying the list's own comments so none is lost. */
function unwrap<T extends YamlNode>(item: T, list: YamlNode): T {
  if (list.commentBefore)
    item.commentBefore = [list.commentBefore, item.commentBefore].filter(Boolean).join("\n");
  if (list.comment) item.comment = [item.comment, list.comment].filter(Boolean).join("\n");
  return item;
}

function note(context: Context, node: YamlNode, pointer: string, message: string): void {
  context.changes.push(at(context, node, pointer, message));
}

function refuse(context: Context, node: YamlNode, pointer: string, message: string): void {
  context.refusals.push(at(context, node, pointer, message));
}

function at(context: Context, node: YamlNode, pointer: string, message: string): Diagnostic {
  return { file: context.file, ...context.place(node), pointer, message, rule: MIGRATE_RULE };
}
