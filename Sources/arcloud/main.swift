import CommandLineOptions
import Foundation
import Vision

/// Entry point: `CommandLineTool` finds the command, answers --help and --version and maps
/// errors to exit statuses (2 for usage mistakes, 1 for failures).
let tool = CommandLineTool(name: "arcloud", version: arcloudVersion,
                           tagline: "VPS localization service and AR cloud session simulator.", commands: allCommands)
// Every command that works on images already spreads frames, keyframes or requests over
// the cores; OpenCV's own worker pool inside each call would only wait and contend, and
// `bench` figures say "1 thread", which must be true.
exit(await tool.main(Array(CommandLine.arguments.dropFirst())) { openCVThreads = 1 })
