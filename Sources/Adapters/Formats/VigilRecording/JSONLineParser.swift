import JSONScanning

/// The scanner of a recording's lines: the shared JSON scanner with the rules recordings have always
/// been read by (`JSONScanner.Rules.permissive`, its default).
typealias JSONLineScanner = JSONScanner
