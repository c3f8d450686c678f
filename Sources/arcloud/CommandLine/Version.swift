/// The release of arcloud; `arcloud --version` prints it. Apps depend on the SDK by this
/// version (`from: "0.2.0"`): scripts/dependency-test.sh tags the commit with it, and the
/// CHANGELOG.md's "## [<version>]" section names it (EndToEndTests checks both agree).
let arcloudVersion = "0.2.0"
