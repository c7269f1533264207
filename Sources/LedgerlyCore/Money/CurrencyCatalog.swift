import FoundationEssentials

/// The ISO 4217 list: code, minor-unit exponent and English name of every active currency.
///
/// Kept as data in the code rather than read from ICU: ICU's "digits" are display preferences
/// (cash rounding, for one) and differ between versions, while the ledger needs the ISO exponent,
/// which decides how amounts are stored.
public enum CurrencyCatalog {
    public struct Entry: Sendable, Hashable {
        public let code: String
        public let exponent: Int
        public let name: String
    }

    /// Exponent used for a custom (non-ISO) code, e.g. a loyalty-point or local currency.
    public static let customExponent = 2

    /// Minor units of common crypto-assets, which are not in ISO 4217 (satoshis for BTC; 8
    /// decimals for ETH, as most exchanges show it; 6 for the dollar stablecoins).
    public static let cryptoExponents: [String: Int] = [
        "BTC": 8, "ETH": 8, "LTC": 8, "DOGE": 8, "SOL": 9, "USDT": 6, "USDC": 6, "XRP": 6, "ADA": 6,
    ]

    /// The active currencies (ISO 4217 list one): what setup offers and `search` finds.
    public static let entries: [Entry] = entries(of: table)

    /// Historic denominations (ISO 4217 list three) with the minor unit ISO 4217 gave them while
    /// they were current: the currencies the euro replaced, the ECB's historical reference rates
    /// (CYP, EEK, HRK, LTL, LVL, MTL, ROL, SIT, SKK, TRL) and other well-known withdrawn codes.
    /// Old rates and old transactions in them keep their real exponent (TRL, ITL, ESP: 0) rather
    /// than the custom default. Not offered by `search`; `entry(for:)` knows them.
    public static let historicEntries: [Entry] = entries(of: historicTable)

    /// Reads "CODE:EXPONENT:Name" lines. Split on the UTF-8 bytes: the tables are ASCII, and
    /// splitting the `String` by `Character` (grapheme breaking over the whole table) was a large
    /// share of every CLI command that reads an amount in a currency (D274).
    private static func entries(of table: String) -> [Entry] {
        table.utf8.split(separator: UInt8(ascii: "\n")).map { line in
            let parts = line.split(separator: UInt8(ascii: ":"), maxSplits: 2).map { String(decoding: $0, as: UTF8.self) }
            return Entry(code: parts[0], exponent: Int(parts[1])!, name: parts[2])
        }
    }

    private static let byCode: [String: Entry] = Dictionary(uniqueKeysWithValues: (entries + historicEntries).map { ($0.code, $0) })
    private static let historicCodes = Set(historicEntries.map(\.code))

    /// An active or historic ISO 4217 currency.
    public static func entry(for code: String) -> Entry? { byCode[code] }

    /// Whether a code is a withdrawn ISO 4217 currency (list three).
    public static func isHistoric(_ code: String) -> Bool { historicCodes.contains(code) }

    /// The minor-unit exponent of an (upper-case) code: ISO 4217 (active, then historic), then the
    /// crypto table, then the custom default. The one place this rule lives.
    public static func exponent(for code: String) -> Int {
        byCode[code]?.exponent ?? cryptoExponents[code] ?? customExponent
    }

    /// Codes whose code or name contains `query` (case-insensitive), ISO order.
    public static func search(_ query: String) -> [Entry] {
        let needle = query.trimmingWhitespace().lowercased()
        guard !needle.isEmpty else { return entries }
        let exact = entries.filter { $0.code.lowercased() == needle }
        let rest = entries.filter { $0.code.lowercased() != needle && ($0.code.lowercased().contains(needle) || $0.name.lowercased().contains(needle)) }
        return exact + rest
    }

    private static let table = """
    AED:2:UAE Dirham
    AFN:2:Afghani
    ALL:2:Lek
    AMD:2:Armenian Dram
    ANG:2:Netherlands Antillean Guilder
    AOA:2:Kwanza
    ARS:2:Argentine Peso
    AUD:2:Australian Dollar
    AWG:2:Aruban Florin
    AZN:2:Azerbaijan Manat
    BAM:2:Convertible Mark
    BBD:2:Barbados Dollar
    BDT:2:Taka
    BGN:2:Bulgarian Lev
    BHD:3:Bahraini Dinar
    BIF:0:Burundi Franc
    BMD:2:Bermudian Dollar
    BND:2:Brunei Dollar
    BOB:2:Boliviano
    BRL:2:Brazilian Real
    BSD:2:Bahamian Dollar
    BTN:2:Ngultrum
    BWP:2:Pula
    BYN:2:Belarusian Ruble
    BZD:2:Belize Dollar
    CAD:2:Canadian Dollar
    CDF:2:Congolese Franc
    CHF:2:Swiss Franc
    CLF:4:Unidad de Fomento
    CLP:0:Chilean Peso
    CNY:2:Yuan Renminbi
    COP:2:Colombian Peso
    CRC:2:Costa Rican Colon
    CUP:2:Cuban Peso
    CVE:2:Cabo Verde Escudo
    CZK:2:Czech Koruna
    DJF:0:Djibouti Franc
    DKK:2:Danish Krone
    DOP:2:Dominican Peso
    DZD:2:Algerian Dinar
    EGP:2:Egyptian Pound
    ERN:2:Nakfa
    ETB:2:Ethiopian Birr
    EUR:2:Euro
    FJD:2:Fiji Dollar
    FKP:2:Falkland Islands Pound
    GBP:2:Pound Sterling
    GEL:2:Lari
    GHS:2:Ghana Cedi
    GIP:2:Gibraltar Pound
    GMD:2:Dalasi
    GNF:0:Guinean Franc
    GTQ:2:Quetzal
    GYD:2:Guyana Dollar
    HKD:2:Hong Kong Dollar
    HNL:2:Lempira
    HTG:2:Gourde
    HUF:2:Forint
    IDR:2:Rupiah
    ILS:2:New Israeli Sheqel
    INR:2:Indian Rupee
    IQD:3:Iraqi Dinar
    IRR:2:Iranian Rial
    ISK:0:Iceland Krona
    JMD:2:Jamaican Dollar
    JOD:3:Jordanian Dinar
    JPY:0:Yen
    KES:2:Kenyan Shilling
    KGS:2:Som
    KHR:2:Riel
    KMF:0:Comorian Franc
    KPW:2:North Korean Won
    KRW:0:Won
    KWD:3:Kuwaiti Dinar
    KYD:2:Cayman Islands Dollar
    KZT:2:Tenge
    LAK:2:Lao Kip
    LBP:2:Lebanese Pound
    LKR:2:Sri Lanka Rupee
    LRD:2:Liberian Dollar
    LSL:2:Loti
    LYD:3:Libyan Dinar
    MAD:2:Moroccan Dirham
    MDL:2:Moldovan Leu
    MGA:2:Malagasy Ariary
    MKD:2:Denar
    MMK:2:Kyat
    MNT:2:Tugrik
    MOP:2:Pataca
    MRU:2:Ouguiya
    MUR:2:Mauritius Rupee
    MVR:2:Rufiyaa
    MWK:2:Malawi Kwacha
    MXN:2:Mexican Peso
    MYR:2:Malaysian Ringgit
    MZN:2:Mozambique Metical
    NAD:2:Namibia Dollar
    NGN:2:Naira
    NIO:2:Cordoba Oro
    NOK:2:Norwegian Krone
    NPR:2:Nepalese Rupee
    NZD:2:New Zealand Dollar
    OMR:3:Rial Omani
    PAB:2:Balboa
    PEN:2:Sol
    PGK:2:Kina
    PHP:2:Philippine Peso
    PKR:2:Pakistan Rupee
    PLN:2:Zloty
    PYG:0:Guarani
    QAR:2:Qatari Rial
    RON:2:Romanian Leu
    RSD:2:Serbian Dinar
    RUB:2:Russian Ruble
    RWF:0:Rwanda Franc
    SAR:2:Saudi Riyal
    SBD:2:Solomon Islands Dollar
    SCR:2:Seychelles Rupee
    SDG:2:Sudanese Pound
    SEK:2:Swedish Krona
    SGD:2:Singapore Dollar
    SHP:2:Saint Helena Pound
    SLE:2:Leone
    SOS:2:Somali Shilling
    SRD:2:Surinam Dollar
    SSP:2:South Sudanese Pound
    STN:2:Dobra
    SVC:2:El Salvador Colon
    SYP:2:Syrian Pound
    SZL:2:Lilangeni
    THB:2:Baht
    TJS:2:Somoni
    TMT:2:Turkmenistan New Manat
    TND:3:Tunisian Dinar
    TOP:2:Pa'anga
    TRY:2:Turkish Lira
    TTD:2:Trinidad and Tobago Dollar
    TWD:2:New Taiwan Dollar
    TZS:2:Tanzanian Shilling
    UAH:2:Hryvnia
    UGX:0:Uganda Shilling
    USD:2:US Dollar
    UYU:2:Peso Uruguayo
    UYW:4:Unidad Previsional
    UZS:2:Uzbekistan Sum
    VED:2:Bolivar Soberano
    VES:2:Bolivar Soberano
    VND:0:Dong
    VUV:0:Vatu
    WST:2:Tala
    XAF:0:CFA Franc BEAC
    XCD:2:East Caribbean Dollar
    XOF:0:CFA Franc BCEAO
    XPF:0:CFP Franc
    YER:2:Yemeni Rial
    ZAR:2:Rand
    ZMW:2:Zambian Kwacha
    ZWG:2:Zimbabwe Gold
    """

    private static let historicTable = """
    ADP:0:Andorran Peseta
    AFA:2:Afghani (old)
    AON:2:New Kwanza
    AOR:2:Kwanza Reajustado
    ARA:2:Austral
    ARP:2:Peso Argentino
    ATS:2:Schilling
    AYM:2:Azerbaijanian Manat (old)
    AZM:2:Azerbaijanian Manat (old)
    BEF:0:Belgian Franc
    BGL:2:Lev (old)
    BRC:2:Cruzado
    BRE:2:Cruzeiro
    BRN:2:New Cruzado
    BRR:2:Cruzeiro Real
    BYB:0:Belarusian Ruble (1992)
    BYR:0:Belarusian Ruble (2000)
    CSD:2:Serbian Dinar (Serbia and Montenegro)
    CSK:2:Koruna (Czechoslovakia)
    CUC:2:Peso Convertible
    CYP:2:Cyprus Pound
    DDM:2:Mark der DDR
    DEM:2:Deutsche Mark
    ECS:2:Sucre
    EEK:2:Kroon
    ESP:0:Spanish Peseta
    FIM:2:Markka
    FRF:2:French Franc
    GHC:2:Cedi (old)
    GRD:0:Drachma
    GWP:2:Guinea-Bissau Peso
    HRK:2:Kuna
    IEP:2:Irish Pound
    ITL:0:Italian Lira
    LTL:2:Lithuanian Litas
    LUF:0:Luxembourg Franc
    LVL:2:Latvian Lats
    MGF:0:Malagasy Franc
    MTL:2:Maltese Lira
    MRO:2:Ouguiya (old)
    MXP:2:Mexican Peso (old)
    MZM:2:Mozambique Metical (old)
    NLG:2:Netherlands Guilder
    PEI:2:Inti
    PLZ:2:Zloty (old)
    PTE:0:Portuguese Escudo
    ROL:2:Romanian Leu (old)
    RUR:2:Russian Ruble (old)
    SDD:2:Sudanese Dinar
    SIT:2:Tolar
    SKK:2:Slovak Koruna
    SLL:2:Leone (old)
    SRG:2:Surinam Guilder
    STD:2:Dobra (old)
    SUR:2:Rouble (USSR)
    TMM:2:Turkmenistan Manat (old)
    TPE:0:Timor Escudo
    TRL:0:Turkish Lira (old)
    UAK:2:Karbovanet
    VEB:2:Bolivar (old)
    VEF:2:Bolivar Fuerte
    XEU:2:European Currency Unit
    YUM:2:New Yugoslavian Dinar
    ZMK:2:Zambian Kwacha (old)
    ZWD:2:Zimbabwe Dollar (old)
    ZWL:2:Zimbabwe Dollar
    ZWN:2:Zimbabwe Dollar (new)
    ZWR:2:Zimbabwe Dollar (2008)
    """
}
