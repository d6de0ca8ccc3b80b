/** The console's errors come from the shared mapping, so the guest gallery words them the same way. */
export { describeError, type DescribeOptions } from '../../shared/error-text.js';
