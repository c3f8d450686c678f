#!/usr/bin/env bash
# The SDK port as another package's versioned dependency: a scratch app depends on this
# repository through a file:// git URL with a version requirement (as it would on a
# hosting service), imports only GraffityARCloud, builds (SwiftPM refuses unsafe build
# flags in such a dependency), then runs: it replays two seconds of the shipped walk on
# the virtual clock against the shipped map with the embedded VPS and must localize.
# Uses the committed HEAD; about 3-4 minutes on 2 cores (a clean debug build).
#
#   scripts/dependency-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

git clone -q --bare "$repo" "$work/arcloud.git"
# Tagged with the version `arcloud --version` prints, as a release would be.
version=$(sed -n 's/^let arcloudVersion = "\(.*\)"$/\1/p' Sources/arcloud/CommandLine/Version.swift)
[ -n "$version" ] || { echo "dependency-test: no arcloudVersion in Sources/arcloud/CommandLine/Version.swift" >&2; exit 1; }
git -C "$work/arcloud.git" tag "$version" "$(git rev-parse HEAD)"

mkdir -p "$work/App/Sources/App"
cat >"$work/App/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(url: "file://$work/arcloud.git", from: "$version")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "GraffityARCloud", package: "arcloud")]),
    ]
)
MANIFEST
cat >"$work/App/Sources/App/main.swift" <<'SWIFT'
import Foundation
import GraffityARCloud

// An app's view of the SDK: only `import GraffityARCloud`.
let repo = URL(fileURLWithPath: CommandLine.arguments[1])
let walk = repo.appendingPathComponent("Datasets/gallery-query-walk")
let configuration = GraffityARCloud.Configuration(
    mapId: "gallery", embeddedMapURL: repo.appendingPathComponent("Maps/gallery.vpsmap"))
let outcome: String = try await { @MainActor in
    let sdk = GraffityARCloud(configuration: configuration)
    let session: RecordedSession = try RecordedSession.load(from: walk)
    let host: VirtualReplayHost = try sdk.makeVirtualReplay(session: session, directory: walk)
    try await host.loadView()
    try await host.advance(by: .seconds(2))
    let pose: Pose? = host.cameraPose
    let localized = sdk.state.vpsState.isLocalized && pose != nil
    await sdk.shutdown()
    return "\(localized ? "localized" : "not localized"); final \(sdk.state)"
}()
print("app: \(outcome)")
if !outcome.hasPrefix("localized") { exit(1) }
SWIFT

cd "$work/App"
swift package resolve
resolved=$(swift package show-dependencies | grep -o 'arcloud<[^>]*>' | head -1)
echo "dependency-test: resolved $resolved"
build_start=$(date +%s)
swift build 2>&1 | tail -3   # plain, as an app developer builds: no flags
modules=$(ls .build/debug/Modules | sed -n 's/\.swiftmodule$//p' | sort | tr '\n' ' ')
cxx=$(find -L .build/debug -path '*.build/*' -name '*.cpp.o' | sed 's#.*/##; s#\.cpp\.o$##' | sort | tr '\n' ' ')
echo "dependency-test: the app and its closure built in $(( $(date +%s) - build_start )) s: Swift modules $modules; C++ $cxx"
# What apps link must hold no benchmark code: one check, on the product's target closure.
"$repo/scripts/sdk-closure.sh"
.build/debug/App "$repo"
echo "dependency-test: passed in $(( $(date +%s) - start )) s"
