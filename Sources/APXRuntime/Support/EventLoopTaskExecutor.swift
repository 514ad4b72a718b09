import NIOCore

/// A NIO event loop as a Swift task executor: jobs run on the loop's thread, the thread that
/// also reads and writes the run's sockets (see `BodyPump`, `HTTPSession.with`).
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
  let eventLoop: any EventLoop

  init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
