import Foundation
import LedgerlyCore
import Testing

/// `RegionCurrency`, the CLI's own table of a region's currency (D380), against Foundation's
/// `Locale.currency` (ICU's data) in this toolchain: every region, and the identifier forms a
/// locale variable holds.
@Suite struct RegionCurrencyOracleTests {
    @Test func everyRegionAgreesWithFoundation() {
        var compared = 0
        for region in Locale.Region.isoRegions where region.identifier.count == 2 {
            #expect(RegionCurrency.byRegion[region.identifier] == Locale(identifier: "und_\(region.identifier)").currency?.identifier, "\(region.identifier)")
            compared += 1
        }
        #expect(compared > 240)
        #expect(RegionCurrency.byRegion.count == RegionCurrency.byRegion.keys.filter { key in Locale.Region.isoRegions.contains { $0.identifier == key } }.count)
    }

    @Test(arguments: ["de_DE", "de_CH", "en-GB", "en_US", "zh_Hans_CN", "sr_Latn_RS", "sr_RS", "ja_JP", "pt_BR", "de", "en", "es_419", "xx_YY", "C", "de_de"])
    func identifierAgreesWithFoundation(identifier: String) {
        #expect(RegionCurrency.currency(forLocale: identifier) == Locale(identifier: identifier).currency?.identifier, "\(identifier)")
    }
}
