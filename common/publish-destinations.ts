/** The kinds of publishing destination the console offers, shared by the service's checks and the console's pickers. */
export const DESTINATION_TYPES = ['local', 'webdav', 'sftp', 's3', 'rclone'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];
export const WEBDAV_VENDORS = ['nextcloud', 'owncloud', 'other'] as const;
export type WebdavVendor = (typeof WEBDAV_VENDORS)[number];
export const S3_PROVIDERS = ['AWS', 'Cloudflare', 'Minio', 'Scaleway', 'Wasabi', 'Other'] as const;
export type S3Provider = (typeof S3_PROVIDERS)[number];

/** Types whose remote takes a password (WebDAV, SFTP) or a secret key (S3). */
export const SECRET_TYPES: readonly DestinationType[] = ['webdav', 'sftp', 's3'];
