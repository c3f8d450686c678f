import MapModel

/// The SQLite layout of a `.vpsmap` file, version 4.
///
/// Recognition: `PRAGMA application_id` is `applicationID` and table `map_info` holds
/// `format = arcloud-vpsmap`; `PRAGMA user_version` is the schema version. Row tables
/// keep the file inspectable with the `sqlite3` shell; indices are dense (0-based) so a
/// map loads with one ordered scan per table.
///
/// Observations are the exception: one row per keyframe holding its observations packed
/// in a BLOB (`observationRecordBytes` each, little-endian: point u32, x f32, y f32,
/// octave u8; sorted by point). A map has several observations per point, and a row per
/// observation made files twice as large and loading three times slower (version 1).
///
/// Version 3 added `map_info` keys `units` (`metres` | `unknown`) and `up` (`+y`, `x,y,z`
/// or `unknown`), and table `point_views`: every descriptor a point can be matched by
/// (one per distinct viewing direction), grouped by point. Version 2 maps still load:
/// units and up follow from their source (sessions: metres, +y; otherwise unknown) and
/// each point is matched by its one descriptor.
///
/// Version 4 added `map_info` key `feature_type` (`sift`): a map whose points carry SIFT's
/// binary descriptors. Only such maps are written as version 4, so that a build which
/// would read them as ORB refuses them; ORB maps stay version 3 and open in older builds.
///
/// Table `point_simulated_views` (same columns as `point_views`, only in maps built with
/// simulated views) holds descriptors of points seen in ASIFT's simulated views of their
/// keyframes, grouped by point. It needs no new version: a build that does not know it
/// ignores it and matches the map by its photos' descriptors alone.
enum MapSchema {
    static let version = 4
    /// The version a map is written as: the oldest that can say what it holds.
    static func version(of metadata: MapMetadata) -> Int { metadata.featureType == .orb ? 3 : 4 }
    /// The oldest version this build reads (migrating it in memory).
    static let oldestReadableVersion = 2
    static let observationRecordBytes = 13
    /// "VPSM" as a big-endian 32-bit integer.
    static let applicationID: Int32 = 0x5650_534D
    static let formatName = "arcloud-vpsmap"

    static let createSimulatedViews = """
        CREATE TABLE point_simulated_views (
            id         INTEGER PRIMARY KEY,
            point      INTEGER NOT NULL,
            word       INTEGER NOT NULL,
            descriptor BLOB NOT NULL CHECK (length(descriptor) = 32)
        );
        """

    static let create = """
        CREATE TABLE map_info (
            key   TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE sections (
            idx   INTEGER PRIMARY KEY,
            id    TEXT NOT NULL UNIQUE,
            name  TEXT NOT NULL,
            min_x REAL, min_y REAL, min_z REAL,
            max_x REAL, max_y REAL, max_z REAL
        );
        CREATE TABLE keyframes (
            id        INTEGER PRIMARY KEY,
            name      TEXT NOT NULL,
            timestamp REAL NOT NULL,
            tx REAL NOT NULL, ty REAL NOT NULL, tz REAL NOT NULL,
            qx REAL NOT NULL, qy REAL NOT NULL, qz REAL NOT NULL, qw REAL NOT NULL,
            width INTEGER NOT NULL, height INTEGER NOT NULL,
            fx REAL NOT NULL, fy REAL NOT NULL, cx REAL NOT NULL, cy REAL NOT NULL,
            distortion TEXT,
            section INTEGER
        );
        CREATE TABLE points (
            id           INTEGER PRIMARY KEY,
            x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL,
            descriptor   BLOB NOT NULL CHECK (length(descriptor) = 32),
            observations INTEGER NOT NULL,
            word         INTEGER NOT NULL,
            section      INTEGER NOT NULL
        );
        CREATE TABLE point_views (
            id         INTEGER PRIMARY KEY,
            point      INTEGER NOT NULL,
            word       INTEGER NOT NULL,
            descriptor BLOB NOT NULL CHECK (length(descriptor) = 32)
        );
        CREATE TABLE observations (
            keyframe INTEGER PRIMARY KEY,
            count    INTEGER NOT NULL,
            data     BLOB NOT NULL
        );
        CREATE TABLE scene_objects (
            idx     INTEGER PRIMARY KEY,
            id      TEXT NOT NULL UNIQUE,
            kind    TEXT NOT NULL,
            section TEXT NOT NULL,
            tx REAL NOT NULL, ty REAL NOT NULL, tz REAL NOT NULL,
            qx REAL NOT NULL, qy REAL NOT NULL, qz REAL NOT NULL, qw REAL NOT NULL,
            ex REAL NOT NULL, ey REAL NOT NULL, ez REAL NOT NULL,
            payload TEXT NOT NULL
        );
        CREATE TABLE nav_nodes (
            idx     INTEGER PRIMARY KEY,
            id      TEXT NOT NULL UNIQUE,
            name    TEXT NOT NULL,
            x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL,
            section TEXT NOT NULL
        );
        CREATE TABLE nav_edges (
            idx       INTEGER PRIMARY KEY,
            from_node TEXT NOT NULL,
            to_node   TEXT NOT NULL,
            weight    REAL NOT NULL
        );
        CREATE TABLE retrieval_index (
            name TEXT PRIMARY KEY,
            data BLOB NOT NULL
        ) WITHOUT ROWID;
        """
}
