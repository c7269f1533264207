/// The currency in use in each region (ISO 3166-1 alpha-2), as ICU's data gave it through
/// Foundation's `Locale.currency` when this table was made (Swift 6.3.1's ICU): `setup`'s
/// suggestion for a base currency comes from the user's locale. Kept here so the CLI links no ICU
/// (D380); a test compares every row with Foundation's answer.
public enum RegionCurrency {
    /// The currency of the region in a locale identifier such as `de_DE`, `zh_Hans_CN` or `en-GB`
    /// (language, optional script, region; case as it comes); nil without a known region.
    public static func currency(forLocale identifier: String) -> String? {
        var parts = identifier.split(whereSeparator: { $0 == "_" || $0 == "-" }).dropFirst()
        if let script = parts.first, script.count == 4, script.allSatisfy(\.isLetter) { parts = parts.dropFirst() }
        guard let region = parts.first, region.count == 2, region.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return byRegion[region.uppercased()]
    }

    /// Region code to currency code.
    public static let byRegion: [String: String] = {
        var table: [String: String] = [:]
        let words = rows.split(whereSeparator: { $0 == " " || $0 == "\n" })
        for index in stride(from: 0, to: words.count - 1, by: 2) { table[String(words[index])] = String(words[index + 1]) }
        return table
    }()

    private static let rows = """
    AC SHP  AD EUR  AE AED  AF AFN  AG XCD  AI XCD  AL ALL  AM AMD  AO AOA  AQ XXX  AR ARS  AS USD
    AT EUR  AU AUD  AW AWG  AX EUR  AZ AZN  BA BAM  BB BBD  BD BDT  BE EUR  BF XOF  BG BGN  BH BHD
    BI BIF  BJ XOF  BL EUR  BM BMD  BN BND  BO BOB  BQ USD  BR BRL  BS BSD  BT BTN  BV NOK  BW BWP
    BY BYN  BZ BZD  CA CAD  CC AUD  CD CDF  CF XAF  CG XAF  CH CHF  CI XOF  CK NZD  CL CLP  CM XAF
    CN CNY  CO COP  CP XXX  CR CRC  CU CUP  CV CVE  CW XCG  CX AUD  CY EUR  CZ CZK  DE EUR  DG USD
    DJ DJF  DK DKK  DM XCD  DO DOP  DZ DZD  EA EUR  EC USD  EE EUR  EG EGP  EH MAD  ER ERN  ES EUR
    ET ETB  EU EUR  FI EUR  FJ FJD  FK FKP  FM USD  FO DKK  FR EUR  GA XAF  GB GBP  GD XCD  GE GEL
    GF EUR  GG GBP  GH GHS  GI GIP  GL DKK  GM GMD  GN GNF  GP EUR  GQ XAF  GR EUR  GS GBP  GT GTQ
    GU USD  GW XOF  GY GYD  HK HKD  HM AUD  HN HNL  HR EUR  HT HTG  HU HUF  IC EUR  ID IDR  IE EUR
    IL ILS  IM GBP  IN INR  IO USD  IQ IQD  IR IRR  IS ISK  IT EUR  JE GBP  JM JMD  JO JOD  JP JPY
    KE KES  KG KGS  KH KHR  KI AUD  KM KMF  KN XCD  KP KPW  KR KRW  KW KWD  KY KYD  KZ KZT  LA LAK
    LB LBP  LC XCD  LI CHF  LK LKR  LR LRD  LS ZAR  LT EUR  LU EUR  LV EUR  LY LYD  MA MAD  MC EUR
    MD MDL  ME EUR  MF EUR  MG MGA  MH USD  MK MKD  ML XOF  MM MMK  MN MNT  MO MOP  MP USD  MQ EUR
    MR MRU  MS XCD  MT EUR  MU MUR  MV MVR  MW MWK  MX MXN  MY MYR  MZ MZN  NA NAD  NC XPF  NE XOF
    NF AUD  NG NGN  NI NIO  NL EUR  NO NOK  NP NPR  NR AUD  NU NZD  NZ NZD  OM OMR  PA PAB  PE PEN
    PF XPF  PG PGK  PH PHP  PK PKR  PL PLN  PM EUR  PN NZD  PR USD  PS ILS  PT EUR  PW USD  PY PYG
    QA QAR  RE EUR  RO RON  RS RSD  RU RUB  RW RWF  SA SAR  SB SBD  SC SCR  SD SDG  SE SEK  SG SGD
    SH SHP  SI EUR  SJ NOK  SK EUR  SL SLE  SM EUR  SN XOF  SO SOS  SR SRD  SS SSP  ST STN  SV USD
    SX XCG  SY SYP  SZ SZL  TA GBP  TC USD  TD XAF  TF EUR  TG XOF  TH THB  TJ TJS  TK NZD  TL USD
    TM TMT  TN TND  TO TOP  TR TRY  TT TTD  TV AUD  TW TWD  TZ TZS  UA UAH  UG UGX  UM USD  US USD
    UY UYU  UZ UZS  VA EUR  VC XCD  VE VED  VG USD  VI USD  VN VND  VU VUV  WF XPF  WS WST  XK EUR
    YE YER  YT EUR  ZA ZAR  ZM ZMW  ZW ZWG
    """
}
