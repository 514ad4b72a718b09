import APXCore
import APXRuntime

/// How `apx auth login` meets the user: the authorization URL on stderr and in the browser
/// (unless `--no-browser`), the device code and its page, and on a terminal a countdown while
/// the device flow waits.
enum LoginPrompt {
  /// - Parameter demo: the session of a login on the embedded demo, whose page apx follows itself.
  static func interaction(
    api: String, openBrowser: Bool, timeout: Double?, demo: HTTPSession?, context: Context
  ) -> LoginInteraction {
    LoginInteraction(
      authorize: { url in
        if let demo {
          context.warn("apx: the demo's login page approves by itself; apx follows it: \(url)")
          Task {
            do { try await DemoBrowser.follow(url, session: demo) } catch {
              context.warn("apx: could not follow the demo's login page: \(error)")
            }
          }
          return
        }
        context.warn("apx: to log in to \(api), open this page (apx waits for it on 127.0.0.1):\n  \(url)")
        guard openBrowser else { return }
        guard let command = BrowserLauncher.command(for: url, environment: context.environment) else {
          context.warn("apx: no browser found ($BROWSER, or \(defaultOpener) on PATH): open the page above yourself")
          return
        }
        BrowserLauncher.start(command, environment: context.environment) { why in
          context.warn("apx: could not open a browser (\(why)): open the page above yourself")
        }
      },
      deviceCode: { prompt in
        var text = "apx: to log in to \(api), open \(prompt.verificationURI) and enter the code \(prompt.userCode)"
        if let complete = prompt.verificationURIComplete { text += "\n  (or open \(complete))" }
        text += "\n  The code expires in \(minutes(prompt.expiresIn))."
        context.warn(text)
      },
      waiting: { left in
        guard context.stderrIsTerminal else { return }
        context.stderr.write("\r\u{1B}[2Kapx: waiting for the login, \(minutes(left)) left")
        context.stderr.flush()
      },
      redirectTimeout: timeout ?? 300)
  }

  /// Ends the countdown's line, so what follows starts on its own.
  static func finish(context: Context) {
    guard context.stderrIsTerminal else { return }
    context.stderr.write("\r\u{1B}[2K")
    context.stderr.flush()
  }

  static var defaultOpener: String { BrowserLauncher.defaultOpener }

  /// `9:05` for 545 seconds.
  static func minutes(_ seconds: Int) -> String {
    let s = max(seconds, 0)
    let rest = s % 60
    return "\(s / 60):\(rest < 10 ? "0" : "")\(rest)"
  }
}
