/// People, groups, galleries and albums in Flickr's JSON: the XML answers
/// with attributes as members and text nodes as `{"_content":…}`.
extension FlickrJSON {
    mutating func renderCollection(_ payload: RestPayload) {
        switch payload {
        case .person(let info):
            raw("{\"person\":")
            person(info)
        case .group(let group):
            raw("{\"group\":{")
            writer.member("id", group.nsid)
            raw(",")
            writer.content("groupname", group.name)
            raw("}")
        case .gallery(let info):
            raw("{\"gallery\":")
            gallery(info)
        case .photoset(let listing, let header):
            raw("{\"photoset\":{")
            writer.members(["id": header.album.id, "primary": header.primaryID, "owner": header.album.owner,
                            "ownername": header.ownerName])
            raw(",\"photo\":[")
            photoArray(listing)
            raw("],\"page\":\(listing.json(\.page, listing.page)),\"per_page\":\(listing.json(\.perPage, listing.perPage)),")
            raw("\"perpage\":\(listing.json(\.perPage, listing.perPage)),")
            raw("\"pages\":\(listing.json(\.pages, listing.pages)),")
            writer.member("title", header.album.title)
            raw(",\"total\":\(listing.json(\.total, listing.total))}")
        case .photosets(let list):
            raw("{\"photosets\":")
            photosets(list)
        default:
            raw("{")
        }
        raw(",\"stat\":\"ok\"}")
    }

    private mutating func person(_ info: PersonInfo) {
        let person = info.person
        raw("{")
        writer.members(["id": person.nsid, "nsid": person.nsid])
        raw(",\"ispro\":0,\"is_deleted\":0,\"iconserver\":\"0\",\"iconfarm\":0,")
        writer.member("path_alias", person.pathAlias)
        raw(",\"has_stats\":0,")
        writer.contents([
            "username": person.username, "realname": person.realName, "location": "", "description": "",
            "photosurl": person.photosURL, "profileurl": person.profileURL, "mobileurl": person.photosURL,
        ])
        raw(",\"photos\":{")
        writer.contents([
            "firstdatetaken": info.photos.map(\.dateTaken).min() ?? "",
            "firstdate": info.photos.last.map { String($0.dateUpload) } ?? "",
        ])
        raw(",\"count\":{\"_content\":\(info.photos.count)}}}")
    }

    /// `urls.lookupGallery`'s gallery, or the `get_gallery_info` member of `galleries.getPhotos`.
    mutating func gallery(_ info: GalleryInfo) {
        let gallery = info.gallery
        let videos = info.photos.filter(\.isVideo).count
        raw("{")
        writer.members([
            "id": gallery.compoundID, "gallery_id": gallery.id, "url": info.owner.photosURL + "galleries/\(gallery.id)",
            "owner": gallery.owner, "username": info.owner.username,
        ])
        raw(",\"iconserver\":\"0\",\"iconfarm\":0,")
        writer.member("primary_photo_id", info.photos.first?.id ?? "")
        raw(",\"date_create\":\"\(gallery.dateCreate)\",\"date_update\":\"\(gallery.dateUpdate)\",")
        raw("\"count_photos\":\(info.photos.count - videos),\"count_videos\":\(videos),\"count_total\":\(info.photos.count),")
        raw("\"count_views\":0,\"count_comments\":0,\"sort_group\":\"\",")
        if let primary = info.photos.first {
            raw("\"primary_photo_server\":\"\(primary.server)\",\"primary_photo_farm\":\(primary.farm),")
            raw("\"primary_photo_secret\":\"\(primary.secret)\",")
        }
        writer.contents(["title": gallery.title, "description": gallery.description])
        raw("}")
    }

    private mutating func photosets(_ list: PhotosetList) {
        raw("{\"page\":\(list.page),\"pages\":\(list.pages),\"perpage\":\(list.perPage),\"total\":\(list.total),\"photoset\":[")
        for (position, entry) in list.entries.enumerated() {
            if position > 0 { raw(",") }
            let album = entry.album
            let primary = entry.primary
            raw("{")
            writer.members(["id": album.id, "primary": primary.id])
            raw(",\"secret\":\"\(primary.secret)\",\"server\":\"\(primary.server)\",\"farm\":\(primary.farm),")
            raw("\"photos\":\(entry.photoCount - entry.videos),\"videos\":\(entry.videos),")
            writer.contents(["title": album.title, "description": album.description])
            raw(",\"needs_interstitial\":0,\"visibility_can_see_set\":1,\"count_views\":\"0\",\"count_comments\":\"0\",")
            raw("\"can_comment\":0,\"date_create\":\"\(album.dateCreate)\",\"date_update\":\"\(album.dateUpdate)\"")
            if let extras = list.primaryExtras {
                raw(",\"primary_photo_extras\":{")
                var members = FlickrJSON()
                members.extraMembers(primary, extras: extras, imageBase: list.imageBase)
                // The members start with a comma each; the object's first does not.
                writer.bytes.append(contentsOf: members.writer.bytes.drop { $0 == UInt8(ascii: ",") })
                raw("}")
            }
            raw("}")
        }
        raw("]}")
    }
}
