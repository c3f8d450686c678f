/// The release of arcloud; `arcloud --version` prints it.
let arcloudVersion = "0.1.0"
