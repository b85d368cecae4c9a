/**
 * Product content in the later standard's shapes and as 2.2.1 defines them, for the tests of
 * `npm run migrate` (test/build/migrate/, test/build/cli/migrate.test.ts).
 */
/** A PCA brand file in the old shapes, with comments that must survive. */
export const OLD_PCA = [
  "# yaml-language-server: $schema=../../schemas/pca-brand.schema.json",
  "# Zed Bank personal current accounts.",
  'BrandName: "Zed Bank"',
  "PCA:",
  '  - Name: "Zed Everyday"',
  '    Identification: "ZED-PCA-1"',
  "    OnSaleIndicator: false",
  "    PCAMarketingState:",
  '      - Identification: "ZED-PCA-1-REG"',
  '        MarketingState: "Regular"',
  "        Eligibility:",
  "          # Where customers must live.",
  "          ResidencyEligibility:",
  '            - ResidencyType: "Householder"',
  "              ResidencyIncluded:",
  '                - "GB" # the United Kingdom',
  "        FeaturesAndBenefits:",
  "          Card:",
  '            - Type: "DebitCard"',
  "              # The scheme printed on the card.",
  "              Scheme:",
  '                - "Visa"',
  "              ContactlessIndicator: true",
  "",
].join("\n");

export const NEW_PCA = [
  "# yaml-language-server: $schema=../../schemas/pca-brand.schema.json",
  "# Zed Bank personal current accounts.",
  'BrandName: "Zed Bank"',
  "PCA:",
  '  - Name: "Zed Everyday"',
  '    Identification: "ZED-PCA-1"',
  "    OnSaleIndicator: false",
  "    PCAMarketingState:",
  '      - Identification: "ZED-PCA-1-REG"',
  '        MarketingState: "Regular"',
  "        Eligibility:",
  "          # Where customers must live.",
  "          ResidencyEligibility:",
  '            ResidencyType: "Householder"',
  "            ResidencyIncluded:",
  '              - "GB" # the United Kingdom',
  "        FeaturesAndBenefits:",
  "          Card:",
  '            - Type: "DebitCard"',
  "              # The scheme printed on the card.",
  '              Scheme: "Visa"',
  "              ContactlessIndicator: true",
  "",
].join("\n");

/** OLD_PCA with lines `from` to `to` (1-based, inclusive) replaced by `lines`. */
export function oldPcaWith(from: number, to: number, ...lines: string[]): string {
  const all = OLD_PCA.split("\n");
  return [...all.slice(0, from - 1), ...lines, ...all.slice(to)].join("\n");
}
