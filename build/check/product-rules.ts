/**
 * The products spec's "Rules across fields" (open-data-api-v2.2-products.md): what the standard's
 * constraint rule books for 2.2.1 require beyond the schemas. Pure: it takes one brand file's
 * parsed value and returns findings at JSON pointers; one-file.ts turns them into diagnostics at
 * lines and columns. Every rule is defensive about types, so it can run beside the schema's own
 * errors without repeating them.
 */
import { pointerJoin } from "../core/json-pointer.js";
import { showValue } from "../core/format.js";
import { isObject } from "../core/json-value.js";
import { marketingStateKeyOf, type ProductRecordsKey } from "../core/datasets.js";

/** A broken rule at one value; `related` is the other value of a disagreeing pair. */
export interface RuleFinding {
  readonly pointer: string;
  readonly message: string;
  readonly rule: string;
  /** The other place, when two values disagree; the finding is reported at both. */
  readonly related?: string;
}

/**
 * Rule 3: a code field and its companion code object. The companion is named `Other` + the field,
 * except for the three the standard names otherwise. A field whose companion the standard does not
 * define (Segment, OverdraftType, Period, CappingPeriod) may say `Other` on its own.
 */
const OTHER_COMPANIONS: Readonly<Record<string, string>> = {
  Type: "OtherType",
  FeeType: "OtherFeeType",
  FeeRateType: "OtherFeeRateType",
  FeeCategory: "OtherFeeCategory",
  ApplicationFrequency: "OtherApplicationFrequency",
  CalculationFrequency: "OtherCalculationFrequency",
  BankInterestRateType: "OtherBankInterestType",
  LoanProviderInterestRateType: "OtherLoanProviderInterestRateType",
  ResidencyType: "OtherResidencyType",
  TradingType: "OtherTradingType",
  LegalStructure: "OtherLegalStructure",
  OfficerType: "OtherOfficerType",
  Scheme: "OtherScheme",
  CardScheme: "OtherCardScheme",
  TariffType: "OtherTariffType",
  RepaymentFrequency: "OtherRepaymentFrequency",
  AmountType: "OtherAmountType",
};

/**
 * Rule 3's exception: a companion whose field has no code `Other` in 2.2.1. SME loans'
 * RepaymentType lists none (the products spec's corrections: 2.3 added it), yet the standard keeps
 * OtherRepaymentType, so the code object stands in for the field rather than beside it.
 */
const STANDALONE_COMPANIONS: Readonly<Record<string, string>> = {
  RepaymentType: "OtherRepaymentType",
};

/**
 * Rule 3 for the product's own Segment: only SME loans define its companion in 2.2.1 (one
 * `OtherSegment` code object; PCA, BCA and CCC gained theirs in 2.3), so elsewhere a Segment may
 * say `Other` alone.
 */
const SEGMENT_COMPANIONS: Partial<Record<ProductRecordsKey, Readonly<Record<string, string>>>> = {
  SMELoan: { Segment: "OtherSegment" },
};

const COMPANION_NAMES = new Set([
  ...Object.values(OTHER_COMPANIONS),
  ...Object.values(STANDALONE_COMPANIONS),
]);

/** Rule 7: the standard's placeholders for an unknown start and for no end. */
const UNKNOWN_START_DATE = "1900-01-01";
const NO_END_DATE = "9999-12-31";

/** Rule 6: fields that a fee applicable range gives as pairs. */
const RANGE_PAIRS = [
  ["MinimumAmount", "MaximumAmount"],
  ["MinimumRate", "MaximumRate"],
] as const;

const OTHER = "Other";
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Every rule-book finding for one brand file of a product data set. */
export function checkProductRules(brand: unknown, recordsKey: ProductRecordsKey): RuleFinding[] {
  const findings: RuleFinding[] = [];
  if (!isObject(brand) || !Array.isArray(brand[recordsKey])) return findings;
  const stateKey = marketingStateKeyOf(recordsKey)!;
  brand[recordsKey].forEach((product: unknown, index: number) => {
    if (!isObject(product)) return;
    const at = pointerJoin(pointerJoin("", recordsKey), index);
    const states = Array.isArray(product[stateKey]) ? (product[stateKey] as unknown[]) : [];
    checkMarketingStates(states, pointerJoin(at, stateKey), findings);
    checkOnSale(product, at, recordsKey, stateKey, findings);
    const segment = SEGMENT_COMPANIONS[recordsKey];
    if (segment) checkOtherCodes(product, at, findings, segment);
    walk(product, at, findings);
  });
  return findings;
}

// Rules 1, 2 and 7: within one product's marketing states.
function checkMarketingStates(states: unknown[], at: string, findings: RuleFinding[]): void {
  const ids = new Map<string, string>();
  states.forEach((state, index) => {
    if (!isObject(state) || typeof state.Identification !== "string") return;
    const pointer = pointerJoin(pointerJoin(at, index), "Identification");
    const seen = ids.get(state.Identification);
    if (seen === undefined) ids.set(state.Identification, pointer);
    else
      findings.push({
        pointer,
        related: seen,
        rule: "marketing-state-id",
        message: `marketing state Identification ${showValue(state.Identification)} is used twice in this product; each marketing state needs its own`,
      });
  });
  states.forEach((state, index) => {
    if (!isObject(state)) return;
    const here = pointerJoin(at, index);
    const predecessor = state.PredecessorID;
    if (typeof predecessor === "string") {
      const pointer = pointerJoin(here, "PredecessorID");
      if (predecessor === state.Identification)
        findings.push({
          pointer,
          rule: "predecessor",
          message: `PredecessorID ${showValue(predecessor)} names this marketing state itself; it must name another marketing state of the same product`,
        });
      else if (!ids.has(predecessor))
        findings.push({
          pointer,
          rule: "predecessor",
          message: `PredecessorID ${showValue(predecessor)} names no marketing state of this product; ${listIds(ids)}`,
        });
    }
    const first = state.FirstMarketedDate;
    const last = state.LastMarketedDate;
    // ISO 8601 calendar dates compare in time order as text.
    if (
      typeof first === "string" &&
      typeof last === "string" &&
      DATE.test(first) &&
      DATE.test(last) &&
      first > last
    )
      findings.push({
        pointer: pointerJoin(here, "FirstMarketedDate"),
        related: pointerJoin(here, "LastMarketedDate"),
        rule: "marketed-dates",
        message: `FirstMarketedDate ${first} is after LastMarketedDate ${last}; for an unknown start use ${UNKNOWN_START_DATE}, for no end ${NO_END_DATE}`,
      });
  });
}

// Rules 4, 8 and 9: what an on-sale product must publish.
function checkOnSale(
  product: Record<string, unknown>,
  at: string,
  recordsKey: ProductRecordsKey,
  stateKey: string,
  findings: RuleFinding[],
): void {
  if (product.OnSaleIndicator !== true) return;
  const pointer = pointerJoin(at, "OnSaleIndicator");
  if (!Array.isArray(product.Segment) || product.Segment.length === 0)
    findings.push({
      pointer,
      rule: "segment",
      message: "a product on sale (OnSaleIndicator: true) must give its Segment",
    });
  const states = Array.isArray(product[stateKey]) ? (product[stateKey] as unknown[]) : [];
  // Rule 9 (constraints C42 and C48 of the 2.2.1 back-book amendment): the current accounts' fees
  // are optional in the schema so that a back-book product may leave them out, and required here
  // for a product on sale, at each marketing state that lacks them.
  if (recordsKey === "PCA" || recordsKey === "BCA")
    states.forEach((state, index) => {
      if (!isObject(state) || state.OtherFeesCharges !== undefined) return;
      const name =
        typeof state.Identification === "string" ? ` ${showValue(state.Identification)}` : "";
      findings.push({
        pointer: pointerJoin(pointerJoin(at, stateKey), index),
        rule: "other-fees-charges",
        message: `marketing state${name} has no OtherFeesCharges, which a product on sale (OnSaleIndicator: true) must give in each marketing state: add its fees, or set OnSaleIndicator: false if the product is no longer sold`,
      });
    });
  // A product without marketing states is the schema's error; saying more here would be noise.
  if (recordsKey !== "PCA" || states.length === 0) return;
  const published = states.some(
    (state) =>
      isObject(state) &&
      isObject(state.CoreProduct) &&
      typeof state.CoreProduct.MonthlyMaximumCharge === "string",
  );
  if (!published)
    findings.push({
      pointer,
      rule: "monthly-maximum-charge",
      message:
        "a personal current account on sale must give CoreProduct.MonthlyMaximumCharge (the monthly maximum charge for unarranged overdraft) in at least one of its marketing states",
    });
}

// Rules 3, 5 and 6: anywhere inside a product.
function walk(value: unknown, at: string, findings: RuleFinding[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, pointerJoin(at, index), findings));
    return;
  }
  if (!isObject(value)) return;
  checkOtherCodes(value, at, findings);
  for (const [key, child] of Object.entries(value)) {
    const here = pointerJoin(at, key);
    if (key === "AgeEligibility") checkAge(child, here, findings);
    else if (key === "OtherEligibility" && Array.isArray(child))
      child.forEach((item, index) =>
        checkOtherEligibility(item, pointerJoin(here, index), findings),
      );
    else if (key === "FeeApplicableRange") checkRange(child, here, findings);
    // A companion code object is the explanation of an `Other`, not a place for more of them
    // (the fee type companion carries its own FeeCategory, which has no companion).
    if (!COMPANION_NAMES.has(key)) walk(child, here, findings);
  }
}

function checkOtherCodes(
  object: Record<string, unknown>,
  at: string,
  findings: RuleFinding[],
  companions: Readonly<Record<string, string>> = OTHER_COMPANIONS,
): void {
  for (const [field, companion] of Object.entries(companions)) {
    const code = object[field];
    const saysOther = code === OTHER || (Array.isArray(code) && code.includes(OTHER));
    const given = object[companion];
    const hasCompanion = given !== undefined && !(Array.isArray(given) && given.length === 0);
    if (saysOther && !hasCompanion)
      findings.push({
        pointer: pointerJoin(at, given === undefined ? field : companion),
        rule: "other-code",
        message:
          given === undefined
            ? `${field} is "${OTHER}", so ${companion} must say what it is (its Name, and Code and Description where useful)`
            : `${field} is "${OTHER}", so ${companion} must not be empty`,
      });
    else if (hasCompanion && !saysOther)
      findings.push({
        pointer: pointerJoin(at, companion),
        related: code === undefined ? undefined : pointerJoin(at, field),
        rule: "other-code",
        message: `${companion} is given, but ${field} ${code === undefined ? "is missing" : `is ${showValue(code)}`}; it explains a ${field} of "${OTHER}": add "${OTHER}" to ${field} or remove ${companion}`,
      });
  }
  if (companions !== OTHER_COMPANIONS) return;
  for (const [field, companion] of Object.entries(STANDALONE_COMPANIONS)) {
    // A field saying `Other` here is the schema's error (not in its list); nothing to add.
    if (object[field] === undefined || object[field] === OTHER || object[companion] === undefined)
      continue;
    findings.push({
      pointer: pointerJoin(at, companion),
      related: pointerJoin(at, field),
      rule: "other-code",
      message: `${companion} is given beside ${field} ${showValue(object[field])}; ${field} has no code "${OTHER}" in 2.2.1, so ${companion} stands instead of it: remove ${field} if the kind is not in its list, otherwise remove ${companion}`,
    });
  }
}

function checkAge(value: unknown, at: string, findings: RuleFinding[]): void {
  if (!isObject(value)) return;
  const min = value.MinimumAge;
  const max = value.MaximumAge;
  if (min === undefined && max === undefined)
    findings.push({
      pointer: at,
      rule: "age-eligibility",
      message: "an age eligibility must give MinimumAge, MaximumAge or both",
    });
  else if (typeof min === "number" && typeof max === "number" && min > max)
    findings.push({
      pointer: pointerJoin(at, "MinimumAge"),
      related: pointerJoin(at, "MaximumAge"),
      rule: "age-eligibility",
      message: `MinimumAge ${min} is above MaximumAge ${max}`,
    });
}

function checkOtherEligibility(value: unknown, at: string, findings: RuleFinding[]): void {
  if (!isObject(value)) return;
  if (value.Amount === undefined && value.Indicator === undefined && value.Textual === undefined)
    findings.push({
      pointer: at,
      rule: "other-eligibility",
      message: "an other eligibility must give at least one of Amount, Indicator or Textual",
    });
}

function checkRange(value: unknown, at: string, findings: RuleFinding[]): void {
  if (!isObject(value)) return;
  for (const [low, high] of RANGE_PAIRS) {
    const min = value[low];
    const max = value[high];
    if ((min === undefined) !== (max === undefined)) {
      const [given, missing] = min === undefined ? [high, low] : [low, high];
      findings.push({
        pointer: pointerJoin(at, given),
        rule: "fee-range",
        message: `a fee applicable range gives ${low} and ${high} as a pair: ${given} is given, ${missing} is missing`,
      });
    } else if (
      typeof min === "string" &&
      typeof max === "string" &&
      DECIMAL.test(min) &&
      DECIMAL.test(max) &&
      Number(min) > Number(max)
    )
      findings.push({
        pointer: pointerJoin(at, low),
        related: pointerJoin(at, high),
        rule: "fee-range",
        message: `${low} ${min} is above ${high} ${max}`,
      });
  }
}

function listIds(ids: ReadonlyMap<string, string>): string {
  if (ids.size === 0) return "it has no marketing state with an Identification";
  return `its marketing states are ${[...ids.keys()].map((id) => showValue(id)).join(", ")}`;
}
