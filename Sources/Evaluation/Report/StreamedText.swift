/// The text a writer hands out a part at a time, gathered into one string: the report's
/// pieces are written straight to their file on a long run, and gathered where a caller
/// (a test, a page built in memory) wants them whole.
func gathered(_ write: ((String) -> Void) -> Void) -> String {
    var s = ""
    write { s += $0 }
    return s
}
