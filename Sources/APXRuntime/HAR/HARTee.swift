/// Hands each event of a call to its HAR recorder, then to the call's own sink.
final class HARTee: CallEventSink {
  let recorder: HARRecorder
  let downstream: any CallEventSink

  init(recorder: HARRecorder, downstream: any CallEventSink) {
    self.recorder = recorder
    self.downstream = downstream
  }

  func receive(_ event: CallEvent) throws {
    recorder.record(event)
    try downstream.receive(event)
  }
}
