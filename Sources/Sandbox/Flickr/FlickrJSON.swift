/// Flickr's JSON: XML attributes become string members (a few are numbers,
/// as Flickr sends them), text nodes `{"_content":…}`, slashes escaped.
struct FlickrJSON {
    var writer = JSONWriter(escapesSlashes: true)

    mutating func raw(_ text: String) { writer.raw(text) }

    mutating func render(_ payload: RestPayload) {
        switch payload {
        case .failure(let code, let message):
            raw("{\"stat\":\"fail\",\"code\":\(code),\"message\":")
            writer.string(message)
            raw("}")
        case .echo(let parameters):
            raw("{")
            for (name, value) in parameters {
                writer.content(name, value)
                raw(",")
            }
            raw("\"stat\":\"ok\"}")
        case .user(let nsid, let username, let method):
            raw("{\"user\":{")
            writer.member("id", nsid)
            if method == "flickr.people.findByUsername" {
                raw(",")
                writer.member("nsid", nsid)
            }
            raw(",")
            writer.content("username", username)
            raw("},\"stat\":\"ok\"}")
        case .licenses(let entries):
            raw("{\"licenses\":{\"license\":[")
            for (position, entry) in entries.enumerated() {
                if position > 0 { raw(",") }
                raw("{\"id\":\(entry.id),")
                writer.member("name", entry.name)
                raw(",")
                writer.member("url", entry.url)
                raw("}")
            }
            raw("]},\"stat\":\"ok\"}")
        case .photos(let listing):
            raw("{\"photos\":{\"page\":\(listing.json(\.page, listing.page)),\"pages\":\(listing.json(\.pages, listing.pages)),")
            raw("\"perpage\":\(listing.json(\.perPage, listing.perPage)),")
            raw("\"total\":\(listing.json(\.total, listing.total)),\"photo\":[")
            photoArray(listing)
            raw("]}")
            if let gallery = listing.gallery {
                raw(",\"gallery\":")
                self.gallery(gallery)
            }
            raw(",\"stat\":\"ok\"}")
        case .info(let photo):
            raw("{\"photo\":")
            info(photo)
            raw(",\"stat\":\"ok\"}")
        case .sizes(let photo, let imageBase):
            raw("{\"sizes\":{\"canblog\":0,\"canprint\":0,\"candownload\":1,\"size\":[")
            for (position, size) in photo.sizeEntries(imageBase: imageBase).enumerated() {
                if position > 0 { raw(",") }
                raw("{")
                writer.member("label", size.label)
                raw(",\"width\":\(photo.dimensionJSON(size.width)),\"height\":\(photo.dimensionJSON(size.height)),")
                writer.members(["source": size.source, "url": size.url, "media": size.media])
                raw("}")
            }
            raw("]},\"stat\":\"ok\"}")
        case .person, .group, .gallery, .photoset, .photosets:
            renderCollection(payload)
        case .createdPhotoset(let id, let url):
            raw("{\"photoset\":{")
            writer.members(["id": id, "url": url])
            raw("},\"stat\":\"ok\"}")
        }
    }

    /// The photos of a list, comma-separated.
    mutating func photoArray(_ listing: PhotoListing) {
        for (position, photo) in listing.photos.enumerated() {
            if position > 0 { raw(",") }
            self.photo(photo, in: listing)
        }
    }

    /// One photo of a list, with the members its list style adds.
    private mutating func photo(_ photo: CatalogPhoto, in listing: PhotoListing) {
        raw("{\"id\":\"\(photo.id)\",")
        if case .photoset = listing.style {} else { raw("\"owner\":\"\(photo.owner)\",") }
        raw("\"secret\":\"\(photo.secret)\",\"server\":\"\(photo.server)\",\"farm\":\(photo.farm),\"title\":")
        writer.string(photo.title)
        if case .photoset(let primaryID) = listing.style { raw(",\"isprimary\":\"\(photo.id == primaryID ? 1 : 0)\"") }
        raw(",\"ispublic\":\(photo.visibility.isPublic ? 1 : 0),\"isfriend\":\(photo.visibility.isFriend ? 1 : 0)")
        raw(",\"isfamily\":\(photo.visibility.isFamily ? 1 : 0)")
        if listing.style == .pool {
            raw(",")
            writer.member("ownername", photo.ownerName)
            raw(",\"dateadded\":\"\(photo.poolDateAdded)\"")
        }
        extraMembers(photo, extras: listing.extras, imageBase: listing.imageBase, ownerName: listing.style != .pool)
        if case .gallery(let primaryID) = listing.style { raw(",\"is_primary\":\(photo.id == primaryID ? 1 : 0),\"has_comment\":0") }
        raw("}")
    }

    /// The members `extras` adds to a photo, each after a comma (also `primary_photo_extras`).
    mutating func extraMembers(_ photo: CatalogPhoto, extras: Extras, imageBase: String, ownerName: Bool = true) {
        if extras.license {
            raw(",")
            writer.member("license", photo.licenseText)
        }
        if extras.description {
            raw(",")
            writer.content("description", photo.description)
        }
        if extras.originalDimensions {
            raw(",\"o_width\":\"\(photo.originalWidth)\",\"o_height\":\"\(photo.originalHeight)\"")
        }
        if extras.dateUpload { raw(",\"dateupload\":\"\(photo.dateUpload)\"") }
        if extras.lastUpdate { raw(",\"lastupdate\":\"\(photo.lastUpdate)\"") }
        if extras.dateTaken {
            raw(",\"datetaken\":\"\(photo.dateTaken)\",\"datetakengranularity\":0,\"datetakenunknown\":\"0\"")
        }
        if extras.ownerName, ownerName {
            raw(",")
            writer.member("ownername", photo.ownerName)
        }
        if extras.realName, !photo.ownerRealName.isEmpty {
            raw(",")
            writer.member("realname", photo.ownerRealName)
        }
        if extras.originalFormat {
            raw(",\"originalsecret\":\"\(photo.originalSecret)\",\"originalformat\":\"\(photo.originalFormat)\"")
        }
        if extras.views { raw(",\"views\":\"\(photo.views)\"") }
        if extras.tags {
            raw(",")
            writer.member("tags", photo.tags.joined(separator: " "))
        }
        if extras.media { raw(",\"media\":\"\(photo.media)\",\"media_status\":\"ready\"") }
        if extras.pathAlias {
            raw(",")
            writer.member("pathalias", photo.pathAlias)
        }
        for size in extras.sizes(of: photo) {
            let (width, height) = photo.dimensions(size)
            raw(",")
            writer.member("url_\(size.rawValue)", imageBase + photo.imagePath(size))
            raw(",\"height_\(size.rawValue)\":\(photo.dimensionJSON(height)),\"width_\(size.rawValue)\":\(photo.dimensionJSON(width))")
        }
    }

    /// getInfo's `photo`, in the member order Flickr uses.
    private mutating func info(_ photo: CatalogPhoto) {
        raw("{\"id\":\"\(photo.id)\",\"secret\":\"\(photo.secret)\",\"server\":\"\(photo.server)\",")
        raw("\"farm\":\(photo.farm),\"dateuploaded\":\"\(photo.dateUpload)\",\"isfavorite\":0,")
        writer.member("license", photo.licenseText)
        raw(",\"safety_level\":\"0\",\"rotation\":0,")
        raw("\"originalsecret\":\"\(photo.originalSecret)\",\"originalformat\":\"\(photo.originalFormat)\",")
        raw("\"owner\":{\"nsid\":\"\(photo.owner)\",")
        writer.member("username", photo.ownerName)
        raw(",")
        writer.member("realname", photo.ownerRealName)
        raw(",\"location\":\"\",\"iconserver\":\"0\",\"iconfarm\":0,")
        writer.member("path_alias", photo.pathAlias)
        raw("},")
        writer.content("title", photo.title)
        raw(",")
        writer.content("description", photo.description)
        let seen = photo.visibility
        raw(",\"visibility\":{\"ispublic\":\(seen.isPublic ? 1 : 0),\"isfriend\":\(seen.isFriend ? 1 : 0),")
        raw("\"isfamily\":\(seen.isFamily ? 1 : 0)},")
        raw("\"dates\":{\"posted\":\"\(photo.dateUpload)\",\"taken\":\"\(photo.dateTaken)\",")
        raw("\"takengranularity\":0,\"takenunknown\":\"0\",\"lastupdate\":\"\(photo.lastUpdate)\"},")
        raw("\"views\":\"\(photo.views)\",\"editability\":{\"cancomment\":0,\"canaddmeta\":0},")
        raw("\"publiceditability\":{\"cancomment\":1,\"canaddmeta\":0},")
        raw("\"usage\":{\"candownload\":1,\"canblog\":0,\"canprint\":0,\"canshare\":1},")
        raw("\"comments\":{\"_content\":\"0\"},\"notes\":{\"note\":[]},\"people\":{\"haspeople\":0},")
        raw("\"tags\":{\"tag\":[")
        for (position, tag) in photo.tags.enumerated() {
            if position > 0 { raw(",") }
            raw("{\"id\":\"\(photo.tagID(position))\",\"author\":\"\(photo.owner)\",")
            writer.member("authorname", photo.ownerName)
            raw(",")
            writer.member("raw", tag)
            raw(",")
            writer.member("_content", tag)
            raw(",\"machine_tag\":0}")
        }
        raw("]},\"urls\":{\"url\":[{\"type\":\"photopage\",")
        writer.member("_content", photo.pageURL)
        raw("}]},\"media\":\"\(photo.media)\"")
        if photo.isVideo {
            let (width, height) = photo.videoDimensions(.orig)
            raw(",\"video\":{\"ready\":1,\"failed\":0,\"pending\":0,\"duration\":\"\(photo.videoDuration)\",")
            raw("\"width\":\"\(width)\",\"height\":\"\(height)\"}")
        }
        raw("}")
    }
}
