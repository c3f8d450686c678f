import Foundation
import Geodesy
import MapModel
import Storage

struct MapGeorefCommand: Command {
    static let name = "map georef"
    static let summary = "Place a map on the earth by hand, or remove its georeference"
    static let overview = """
        USAGE: arcloud map georef <map.vpsmap> --origin LAT,LON,H --heading DEG [--scale K]
               arcloud map georef <map.vpsmap> --clear

        Sets where the map lies on the earth: its origin at the WGS 84 position LAT,LON
        (degrees) H (metres above the ellipsoid), its up axis pointing up, and its +x axis
        pointing at compass bearing DEG (0 north, 90 east). Answers from the map then carry
        a GeoPose (results.jsonl, the service, the SDK). A map built from frames with GPS
        readings (session.json 'gps', photos' EXIF) is georeferenced by `map build` itself;
        this replaces that. The map file is rewritten atomically.
        """

    static let epilogue = """
        EXAMPLES:
          arcloud map georef my.vpsmap --origin 52.3731,4.8922,2.5 --heading 30
          arcloud map inspect my.vpsmap | grep georeference
        """

    struct Options: CommandArguments {
        let map = Positional("map.vpsmap")
        let origin = Option("origin", .text.placeholder("LAT,LON,H"),
                            help: "WGS 84 position of the map's origin: degrees, degrees, metres above the ellipsoid")
        let heading = Option("heading", .number().placeholder("DEG"),
                             help: "Compass bearing of the map's +x axis: 0 north, 90 east")
        let scale = Option("scale", .number().placeholder("K"),
                           help: "Metres per map unit", defaultText: "1 on a metric map; required on a map of unknown units")
        let clear = Flag("clear", help: "Remove the map's georeference")
    }

    static func run(_ args: ParsedArguments<Options>) async throws -> Int32 {
        var map: VPSMap
        do { map = try VPSMap.load(from: args.map) } catch let e as MapFileError { throw CommandFailure(e.description) }
        if args.clear {
            guard args.origin == nil, args.heading == nil, args.scale == nil else {
                throw UsageError("--clear takes no --origin, --heading or --scale")
            }
            map.metadata.georeference = nil
        } else {
            guard let originText = args.origin, let heading = args.heading else {
                throw UsageError("give --origin LAT,LON,H and --heading DEG (or --clear)")
            }
            let origin: GeodeticPosition
            do { origin = try GeodeticPosition.parse(originText, heading: false).position } catch {
                throw UsageError("option '--origin': \(error)")
            }
            do {
                map.metadata.georeference = try map.metadata.handPlacedGeoreference(origin: origin, headingDegrees: heading,
                                                                                    scale: args.scale)
            } catch { throw CommandFailure(error.description) }
        }
        do { try map.write(to: args.map) } catch let e as MapFileError { throw CommandFailure(e.description) }
        print("\(args.map): georeference " + (map.metadata.georeference.map(\.description) ?? "removed"))
        return 0
    }
}
