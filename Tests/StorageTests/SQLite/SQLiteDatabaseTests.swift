import Foundation
import Testing
import Storage
import TestSupport

@Suite("Storage: SQLite wrapper")
struct SQLiteDatabaseTests {
    @Test func roundTripsEveryStorageClass() throws {
        let db = try SQLiteDatabase.inMemory()
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        let blob: [UInt8] = [0, 1, 2, 255]
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [.integer(-42), .real(2.5), "héllo", .blob(blob), .null])
        #expect(db.changes == 1)
        let rows = try db.query("SELECT i, r, s, b, n FROM t")
        #expect(rows == [[.integer(-42), .real(2.5), .text("héllo"), .blob(blob), .null]])
        // An empty blob stays a zero-length BLOB, not NULL.
        try db.run("INSERT INTO t (b) VALUES (?)", [.blob([])])
        #expect(try db.scalar("SELECT typeof(b) FROM t WHERE rowid = ?", [.integer(db.lastInsertRowID)]) == .text("blob"))
    }

    @Test func preparedStatementIsReusableAndReadsTypedColumns() throws {
        let db = try SQLiteDatabase.inMemory()
        try db.execute("CREATE TABLE p (id INTEGER PRIMARY KEY, x REAL, d BLOB)")
        let insert = try db.prepare("INSERT INTO p (id, x, d) VALUES (?, ?, ?)")
        for i in 0..<100 {
            try insert.bind(Int64(i), at: 1)
            try insert.bind(Double(i) * 0.5, at: 2)
            try insert.bindBlob([UInt8(i), UInt8(255 - i)], at: 3)
            #expect(try insert.step() == false)
            insert.reset()
        }
        var sum = 0.0, count = 0
        try db.forEachRow("SELECT id, x, d FROM p WHERE id >= ? ORDER BY id", [50]) { row in
            #expect(row.double(1) == Double(row.int(0)) * 0.5)
            #expect(row.blob(2) == [UInt8(row.int(0)), UInt8(255 - row.int(0))])
            sum += row.double(1); count += 1
        }
        #expect(count == 50)
        #expect(sum == (50..<100).reduce(0.0) { $0 + Double($1) * 0.5 })
    }

    @Test func wrongParameterCountIsAnError() throws {
        let db = try SQLiteDatabase.inMemory()
        try db.execute("CREATE TABLE t (a, b)")
        #expect(throws: SQLiteError.self) { try db.run("INSERT INTO t VALUES (?, ?)", [1]) }
    }

    @Test func transactionCommitsOrRollsBack() throws {
        let db = try SQLiteDatabase.inMemory()
        try db.execute("CREATE TABLE t (v INTEGER UNIQUE)")
        try db.transaction { try db.run("INSERT INTO t VALUES (1)") }
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(try db.query("SELECT v FROM t") == [[.integer(1)]])
        #expect(db.isAutocommit)
    }

    @Test func nestedTransactionFailureUndoesOnlyTheInnerWork() throws {
        let db = try SQLiteDatabase.inMemory()
        try db.execute("CREATE TABLE t (v INTEGER UNIQUE)")
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            let inner = Result { try db.transaction { try db.run("INSERT INTO t VALUES (1)") } }
            guard case .failure(let e as SQLiteError) = inner else {
                Issue.record("duplicate insert should fail"); return
            }
            #expect(e.kind == .constraint)
            try db.run("INSERT INTO t VALUES (2)")
        }
        #expect(try db.query("SELECT v FROM t ORDER BY v") == [[.integer(1)], [.integer(2)]])
    }

    @Test func errorsNameTheFileAndClassifyTheFailure() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }

        let missing = dir + "/missing.sqlite"
        let openError = #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: missing, mode: .readOnly) }
        #expect(openError?.kind == .cannotOpen)
        #expect(openError?.description.contains(missing) == true)

        let garbage = dir + "/garbage.sqlite"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: garbage))
        // SQLite opens lazily: the first read discovers the file is not a database.
        let db = try SQLiteDatabase(path: garbage, mode: .readOnly)
        let readError = #expect(throws: SQLiteError.self) { try db.userVersion() }
        #expect(readError?.kind == .notADatabase)
        #expect(readError?.description.contains(garbage) == true)

        let mem = try SQLiteDatabase.inMemory()
        let sqlError = #expect(throws: SQLiteError.self) { try mem.query("SELECT * FROM nowhere") }
        #expect(sqlError?.kind == .other)
        #expect(sqlError?.message.contains("nowhere") == true)
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/ro.sqlite"
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("CREATE TABLE t (v)")
            try db.setUserVersion(7)
            try db.setApplicationID(0x1234_5678)
        }
        let ro = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try ro.userVersion() == 7)
        #expect(try ro.applicationID() == 0x1234_5678)
        #expect(try ro.tableExists("t"))
        #expect(try ro.tableExists("u") == false)
        let e = #expect(throws: SQLiteError.self) { try ro.run("INSERT INTO t VALUES (1)") }
        #expect(e?.kind == .readOnly)
        try ro.checkIntegrity()
    }

    @Test func atomicReplacementKeepsTheOldFileWhenTheWriterFails() throws {
        let dir = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/file.bin"
        try AtomicFileReplacement.replace(target) { tmp in
            try Data("old".utf8).write(to: URL(fileURLWithPath: tmp))
        }
        struct Interrupted: Error {}
        #expect(throws: Interrupted.self) {
            try AtomicFileReplacement.replace(target) { tmp in
                try Data("half-writ".utf8).write(to: URL(fileURLWithPath: tmp))
                throw Interrupted()
            }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["file.bin"])
        try AtomicFileReplacement.replace(target) { tmp in
            try Data("new".utf8).write(to: URL(fileURLWithPath: tmp))
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    }
}
