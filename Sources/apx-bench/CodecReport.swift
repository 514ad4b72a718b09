import APXCore

/// Prints a codec benchmark's result as a table for people or one JSON line for scripts.
enum CodecReport {
  static func text(_ r: CodecBenchmark.Result) -> String {
    func row(_ name: String, _ encode: Double, _ decode: Double) -> String {
      "\(pad(name, 34)) encode \(ns(encode)) ns/op   decode \(ns(decode)) ns/op   total \(ns(encode + decode)) ns/op"
    }
    let speed = r.generatedTotal / r.apxTotal
    let textSpeed = r.generatedText / r.apxText
    return """
      codec: classnotes.v1.Lesson, \(r.messageSize) bytes on the wire, \(r.iterations) iterations each
      \(row("apx (APXProtobuf, JSON value)", r.apxEncode, r.apxDecode))
      \(row("swift-protobuf generated (struct)", r.generatedEncode, r.generatedDecode))
      apx speed relative to generated code: \(fixed(speed))x  (target >= 0.3x)
      JSON text -> wire -> JSON text: apx \(ns(r.apxText)) ns/op, generated \(ns(r.generatedText)) ns/op, apx speed \(fixed(textSpeed))x

      """
  }

  static func json(_ r: CodecBenchmark.Result) -> String {
    func number(_ value: Double) -> JSONValue { .double((value * 10).rounded() / 10) }
    let value = JSONValue.object([
      JSONMember("message_bytes", .int(r.messageSize)),
      JSONMember("iterations", .int(r.iterations)),
      JSONMember("apx_encode_ns", number(r.apxEncode)),
      JSONMember("apx_decode_ns", number(r.apxDecode)),
      JSONMember("generated_encode_ns", number(r.generatedEncode)),
      JSONMember("generated_decode_ns", number(r.generatedDecode)),
      JSONMember("apx_text_ns", number(r.apxText)),
      JSONMember("generated_text_ns", number(r.generatedText)),
      JSONMember("checksum", .int(r.checksum)),
    ])
    return JSONPrinter(style: .compact).string(value) + "\n"
  }

  private static func ns(_ value: Double) -> String { pad(fixed(value, digits: 1), 8, left: true) }

  private static func fixed(_ value: Double, digits: Int = 2) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(abs(scaled % Int(scale)))
    return "\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
  }

  private static func pad(_ s: String, _ width: Int, left: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return left ? fill + s : s + fill
  }
}
