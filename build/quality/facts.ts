/**
 * What the rules that compare records read of each record, kept with each file's check result
 * with lines and columns, so a rebuild runs those rules without parsing the values of unchanged
 * files (per-file.ts takes them while the file is checked).
 */
import { createHash } from "node:crypto";
import { normaliseName } from "../../contract/place.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { pointerJoin } from "../core/json-pointer.js";
import { fieldOf, listAt, objectAt, textOf } from "../core/json-value.js";
import { isProductRecordsKey } from "../core/datasets.js";
import { addressOf, addressPointer } from "../core/place.js";
import type { RecordFacts } from "../core/record-facts.js";
import type { Position } from "../read/yaml-nodes.js";

/** Where a value stands in its file. */
export interface Spot {
  readonly pointer: string;
  readonly line: number;
  readonly column: number;
}

/**
 * A text value of a record's address, for the spelling rule, at its line and column; its pointer
 * follows from the record's (textPointer).
 */
export interface TextFact extends Position {
  readonly field: "TownName" | "StreetName" | "CountrySubDivision";
  readonly value: string;
  /** Which CountrySubDivision item. */
  readonly index?: number;
}

/**
 * What the rules across files keep of one record, with the positions they report at, cached with
 * its file's check result. Read from the record's RecordFacts (build/core/record-facts.ts) and
 * value; no place is read here but the one key duplicates compare.
 */
export interface KeptRecord extends Spot {
  readonly id: string | undefined;
  readonly texts: readonly TextFact[];
  /**
   * A branch's building, street, town and postcode, normalised, with its coordinates, for
   * duplicates; absent for ATMs and mobile branches, which are not compared (and for a branch
   * without both), so the cached facts of a large ATM network stay small.
   */
  readonly site?: string;
  /** An ATM's Branch.Identification (at branchRefPointer). */
  readonly branchRef: (Position & { readonly value: string }) | undefined;
  /** A branch listing ExternalATM or InternalATM among its services. */
  readonly hasAtm: boolean;
  /** A non-standard availability's EndDate, at endDatePointer (passed or not depends on the day). */
  readonly endDate: (Position & { readonly value: string }) | undefined;
  /** A product's Name, and a digest of all of it but its Identification, for duplicates. */
  readonly product: { readonly name: string; readonly body: string } | undefined;
}

export interface FileFacts {
  readonly records: readonly KeptRecord[];
  /** What the rules about one record alone found in this file. */
  readonly warnings: readonly Diagnostic[];
}

/** The pointer of one of a record's address texts. */
export function textPointer(recordsKey: string, at: string, text: TextFact): string {
  const field = pointerJoin(addressPointer(recordsKey, at), text.field);
  return text.index === undefined ? field : pointerJoin(field, text.index);
}

/** The pointer of an ATM's Branch.Identification. */
export const branchRefPointer = (at: string) =>
  pointerJoin(pointerJoin(at, "Branch"), "Identification");

/** The pointer of a branch's NonStandardAvailability EndDate. */
export const endDatePointer = (at: string) =>
  pointerJoin(pointerJoin(pointerJoin(at, "Availability"), "NonStandardAvailability"), "EndDate");

/** A digest of a record without its Identification (a short one: it is only compared). */
function digestBesidesId(record: unknown): string {
  const { Identification: _, ...rest } = record as Record<string, unknown>;
  return createHash("sha256").update(JSON.stringify(rest)).digest("base64").slice(0, 22);
}

/** What the rules across files keep of the record at pointer `at`, with positions from `position`. */
export function keptRecord(
  record: unknown,
  facts: RecordFacts,
  at: string,
  recordsKey: string,
  position: (pointer: string) => Position,
): KeptRecord {
  const address = addressOf(record, recordsKey);
  const addressAt = addressPointer(recordsKey, at);
  const texts: TextFact[] = [];
  for (const field of ["TownName", "StreetName"] as const) {
    const value = textOf(address?.[field]);
    if (value !== undefined)
      texts.push({ field, value, ...position(pointerJoin(addressAt, field)) });
  }
  listAt(address, "CountrySubDivision").forEach((value, i) => {
    if (typeof value !== "string") return;
    const pointer = pointerJoin(pointerJoin(addressAt, "CountrySubDivision"), i);
    texts.push({ field: "CountrySubDivision", value, index: i, ...position(pointer) });
  });
  const parts = [
    address?.BuildingNumber,
    address?.StreetName,
    address?.TownName,
    address?.PostCode,
  ].map((part) => textOf(part));
  const { coordinates } = facts;
  const branchId = textOf(objectAt(record, "Branch")?.Identification);
  const services = listAt(record, "ServiceAndFacility");
  const nonStandard = objectAt(objectAt(record, "Availability"), "NonStandardAvailability");
  const endDate = textOf(nonStandard?.EndDate);
  const name = textOf(fieldOf(record, "Name"));
  return {
    pointer: at,
    ...position(at),
    id: facts.id,
    texts,
    // A mobile branch stops where others stand: only fixed branches can be duplicates.
    ...(recordsKey === "Branch" &&
    fieldOf(record, "Type") !== "Mobile" &&
    coordinates &&
    parts.some((p) => p !== undefined)
      ? {
          site: `${parts.map((p) => normaliseName(p ?? "")).join("|")}@${coordinates.latitude},${coordinates.longitude}`,
        }
      : {}),
    branchRef:
      branchId === undefined ? undefined : { value: branchId, ...position(branchRefPointer(at)) },
    hasAtm: services.includes("ExternalATM") || services.includes("InternalATM"),
    endDate:
      endDate === undefined ? undefined : { value: endDate, ...position(endDatePointer(at)) },
    product:
      isProductRecordsKey(recordsKey) && name !== undefined
        ? { name, body: digestBesidesId(record) }
        : undefined,
  };
}
