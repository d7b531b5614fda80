/** The size of each adversarial input: 100 KB. */
export declare const ADVERSARIAL_SIZE: number;
/** Every adversarial input, about `size` characters each, named for the test report. */
export declare function adversarialInputs(size?: number): { readonly name: string; readonly text: string }[];
